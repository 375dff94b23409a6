import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { DestinationRefused, ResolutionFailed, checkDestination, type ResolvedAddress } from "@/lib/webhooks/ssrf";

// One HTTP attempt of one delivery. The whole attempt (DNS, connect, response headers) is
// bounded by `timeoutMs`; redirects are never followed; the connection goes to the
// address the SSRF guard checked (custom `lookup`), while the Host header and TLS SNI /
// certificate check use the URL's host name.
export type SendOutcome = { ok: true; status: number } | { ok: false; status: number | null; error: string; retryAfterSeconds?: number; gone?: boolean };

export async function sendWebhook(input: {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  allowPrivate: boolean;
}): Promise<SendOutcome> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), input.timeoutMs);
  try {
    let url: URL;
    try {
      url = new URL(input.url);
    } catch {
      return { ok: false, status: null, error: "invalid destination URL" };
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") return { ok: false, status: null, error: "destination is not http or https" };
    let addresses: ResolvedAddress[];
    try {
      addresses = await checkDestination(url, { allowPrivate: input.allowPrivate, timeoutMs: input.timeoutMs, signal: controller.signal });
    } catch (e) {
      if (e instanceof DestinationRefused) return { ok: false, status: null, error: `destination refused: ${e.message}` };
      if (controller.signal.aborted) return { ok: false, status: null, error: `timed out after ${input.timeoutMs} ms` };
      if (e instanceof ResolutionFailed) return { ok: false, status: null, error: e.message };
      throw e;
    }
    return await post(url, addresses[0], input, controller.signal);
  } finally {
    clearTimeout(timer);
  }
}

function post(
  url: URL,
  pinned: ResolvedAddress,
  input: { headers: Record<string, string>; body: string; timeoutMs: number },
  signal: AbortSignal,
): Promise<SendOutcome> {
  // Every connection of this request goes to the checked address, whatever DNS says now.
  const lookup: LookupFunction = (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all) (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  };
  const body = Buffer.from(input.body, "utf8");
  const isHttps = url.protocol === "https:";
  const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  return new Promise<SendOutcome>((resolve) => {
    let settled = false;
    const done = (o: SendOutcome) => {
      if (!settled) {
        settled = true;
        resolve(o);
      }
    };
    const options: https.RequestOptions = {
      method: "POST",
      protocol: url.protocol,
      hostname: host,
      port: url.port || (isHttps ? 443 : 80),
      path: `${url.pathname}${url.search}`,
      headers: {
        ...input.headers,
        "content-type": "application/json",
        "content-length": String(body.length),
        "user-agent": "fos-webhooks",
        connection: "close",
      },
      lookup,
      agent: false,
      signal,
    };
    const req = (isHttps ? https : http).request(options, (res) => {
      const status = res.statusCode ?? 0;
      // Only the status and headers matter; the body is not read.
      res.destroy();
      if (status >= 200 && status < 300) return done({ ok: true, status });
      const retryAfterSeconds = parseRetryAfter(res.headers["retry-after"]);
      let error = `receiver answered HTTP ${status}`;
      if (status >= 300 && status < 400) error = `redirect not followed (HTTP ${status})`;
      if (status === 410) error = "receiver answered HTTP 410 Gone: endpoint disabled";
      done({ ok: false, status, error, ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}), ...(status === 410 ? { gone: true } : {}) });
    });
    req.on("error", (err: NodeJS.ErrnoException) => {
      if (signal.aborted) return done({ ok: false, status: null, error: `timed out after ${input.timeoutMs} ms` });
      done({ ok: false, status: null, error: `connection failed (${err.code ?? err.message})` });
    });
    req.end(body);
  });
}

// Retry-After: delta-seconds or an HTTP-date; capped at one day.
export function parseRetryAfter(v: string | string[] | undefined): number | undefined {
  const s = Array.isArray(v) ? v[0] : v;
  if (!s) return undefined;
  const t = s.trim();
  let seconds: number;
  if (/^\d+$/.test(t)) seconds = Number(t);
  else {
    const at = Date.parse(t);
    if (Number.isNaN(at)) return undefined;
    seconds = Math.ceil((at - Date.now()) / 1000);
  }
  return Math.min(Math.max(seconds, 0), 86_400);
}
