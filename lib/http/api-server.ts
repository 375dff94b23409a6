import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { errorBody } from "@/lib/errors";
import { logger } from "@/lib/log";
import { rawTextOf, withRawBody } from "@/lib/http/raw";
import { appendPeer } from "@/lib/http/client-address";
import { gzip, prefersGzip } from "@/lib/http/gzip";

// The direct path of /api/v1: a plain-path request for a route of app/api/v1 goes straight to
// its route handler, skipping Next.js's per-request machinery; everything else is left to
// Next.js. docs/architecture.md, "Why: the direct API path".

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Response | Promise<Response>;
export type RouteModule = Partial<Record<Method, Handler>>;
type Middleware = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

export type DispatchOptions = {
  // [pattern, module]: "/api/v1/obligations/[id]" and the route file's exports. Catch-all
  // segments ([...x]) are not taken: such paths are Next.js's.
  routes: [string, RouteModule][];
  // headers every response carries unless it sets them itself (next.config.mjs's)
  headers: { key: string; value: string }[];
  compress?: Middleware;
  port: number;
};

type Node = { statics: Map<string, Node>; param?: { name: string; node: Node }; module?: RouteModule };
const newNode = (): Node => ({ statics: new Map() });

const METHODS = new Set<string>(["GET", "POST", "PUT", "PATCH", "DELETE"]);
// A path taken directly: /api/v1/ then segments of unreserved and sub-delimiter characters,
// no "%" (nothing to decode), no empty, "." or ".." segment, no trailing slash.
const PLAIN_PATH = /^\/api\/v1(?:\/[A-Za-z0-9\-_~!$&'()*+,;=:@.]+)+$/;
// Bodies up to this size (declared by Content-Length) are read whole before the handler
// runs; larger or undeclared ones are streamed to it (the handlers bound them).
const BUFFERED_BODY_MAX = 256 * 1024;

export function apiDispatcher(opts: DispatchOptions): (req: IncomingMessage, res: ServerResponse) => boolean {
  const root = newNode();
  for (const [pattern, module] of opts.routes) {
    const segments = pattern.split("/").slice(1);
    if (segments.some((x) => x.includes("..."))) continue;
    let node = root;
    for (const segment of segments) {
      if (segment.startsWith("[")) {
        const name = segment.slice(1, -1);
        node.param ??= { name, node: newNode() };
        if (node.param.name !== name) throw new Error(`route ${pattern}: parameter [${name}] where another route has [${node.param.name}]`);
        node = node.param.node;
      } else {
        let next = node.statics.get(segment);
        if (!next) {
          next = newNode();
          node.statics.set(segment, next);
        }
        node = next;
      }
    }
    node.module = module;
  }

  // Next.js's order: a static segment before a dynamic one, trying the next on a dead end.
  const match = (segments: string[], i: number, node: Node, params: Record<string, string>): RouteModule | undefined => {
    if (i === segments.length) return node.module;
    const s = node.statics.get(segments[i]);
    if (s) {
      const m = match(segments, i + 1, s, params);
      if (m) return m;
    }
    if (node.param && segments[i] !== "." && segments[i] !== "..") {
      const m = match(segments, i + 1, node.param.node, params);
      if (m) {
        params[node.param.name] = segments[i];
        return m;
      }
    }
    return undefined;
  };

  return (req, res) => {
    const method = req.method ?? "";
    const raw = req.url ?? "";
    if (!METHODS.has(method)) return false;
    const q = raw.indexOf("?");
    const path = q < 0 ? raw : raw.slice(0, q);
    if (!PLAIN_PATH.test(path)) return false;
    const params: Record<string, string> = {};
    const module = match(path.split("/"), 1, root, params);
    const handler = module?.[method as Method];
    if (!handler) return false;
    void serve(handler, params, method, raw, req, res, opts).catch((err) => {
      logger().error({ err: err instanceof Error ? err.message : String(err) }, "direct API response failed");
      if (!res.headersSent) {
        res.writeHead(500, { "content-type": "application/json", "cache-control": "no-store" });
        res.end(JSON.stringify(errorBody("internal_error", "internal error")));
      } else res.destroy();
    });
    return true;
  };
}

async function serve(
  handler: Handler,
  params: Record<string, string>,
  method: string,
  url: string,
  req: IncomingMessage,
  res: ServerResponse,
  opts: DispatchOptions,
): Promise<void> {
  // the request headers as sent, plus the x-forwarded-* ones Next.js fills in when absent,
  // except x-forwarded-for: the socket's peer is always appended to it, on Next.js's path too
  // (scripts/server.mjs), for lib/http/client-address.ts
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i], raw[i + 1]);
  const secure = (req.socket as { encrypted?: boolean }).encrypted === true;
  if (!headers.has("x-forwarded-host") && headers.has("host")) headers.set("x-forwarded-host", headers.get("host") ?? "");
  if (!headers.has("x-forwarded-port")) headers.set("x-forwarded-port", String(opts.port));
  if (!headers.has("x-forwarded-proto")) headers.set("x-forwarded-proto", secure ? "https" : "http");
  headers.set("x-forwarded-for", appendPeer(headers.get("x-forwarded-for"), req.socket.remoteAddress));

  // A small body is read whole and handed to the pipeline as it is (lib/http/raw.ts); the
  // Request, for any other reader, gets a view of the same bytes (and copies them itself, as
  // a fetch Request copies a byte body); a larger or unannounced one streams.
  let body: BodyInit | undefined;
  let whole: Buffer | undefined;
  if (method !== "GET") {
    const declared = Number(req.headers["content-length"]);
    if (req.headers["transfer-encoding"] === undefined && Number.isSafeInteger(declared) && declared <= BUFFERED_BODY_MAX) {
      if (declared > 0) {
        whole = await readWhole(req);
        body = new Uint8Array(whole.buffer as ArrayBuffer, whole.byteOffset, whole.length);
      }
    } else body = Readable.toWeb(req) as ReadableStream<Uint8Array>;
  }
  const request = new Request(`http://localhost${url}`, { method, headers, body, duplex: "half" } as RequestInit);
  const response = await handler(whole ? withRawBody(request, whole) : request, { params: Promise.resolve(params) });

  const text = rawTextOf(response);
  const length = text === undefined ? 0 : Buffer.byteLength(text);
  const gzipped = text !== undefined && gzipsWhole(req, response, length, opts);
  // Next.js's compression middleware, for a client that asks for an encoding
  if (!gzipped && opts.compress && req.headers["accept-encoding"]) opts.compress(req, res, () => undefined);
  for (const h of opts.headers) res.setHeader(h.key, h.value);
  for (const [k, v] of response.headers) if (k !== "set-cookie") res.setHeader(k, v);
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader("set-cookie", cookies);
  res.statusCode = response.status;
  if (text !== undefined) {
    if (gzipped) {
      const body = await gzip(text);
      const vary = String(res.getHeader("vary") ?? "");
      if (!/(?:^|,)\s*(?:accept-encoding|\*)\s*(?:,|$)/i.test(vary)) res.setHeader("vary", vary ? `${vary}, Accept-Encoding` : "Accept-Encoding");
      res.setHeader("content-encoding", "gzip");
      res.setHeader("content-length", body.length);
      res.end(body);
      return;
    }
    res.setHeader("content-length", length);
    res.end(text);
    return;
  }
  if (!response.body) {
    res.end();
    return;
  }
  // Most bodies are one chunk (a JSON text): sent with its length in one write. Longer
  // streams (documents) are piped chunk by chunk, waiting while the socket is full.
  const reader = response.body.getReader();
  const first = await reader.read();
  if (first.done) {
    res.end();
    return;
  }
  const second = await reader.read();
  if (second.done) {
    if (!res.hasHeader("content-length")) res.setHeader("content-length", first.value.byteLength);
    res.end(first.value);
    return;
  }
  res.write(first.value);
  for (let chunk: ReadableStreamReadResult<Uint8Array> = second; !chunk.done; chunk = await reader.read()) {
    if (res.destroyed) {
      await reader.cancel().catch(() => undefined);
      return;
    }
    if (!res.write(chunk.value)) await new Promise<void>((resolve) => res.once("drain", resolve).once("close", resolve));
  }
  res.end();
}

// Whether the compression middleware would gzip this response (JSON, no no-transform, not
// encoded, >= 1 KiB, gzip its plain choice); docs/architecture.md, "Why: gzip from reused streams".
const NO_TRANSFORM = /(?:^|,)\s*?no-transform\s*?(?:,|$)/;
function gzipsWhole(req: IncomingMessage, response: Response, length: number, opts: DispatchOptions): boolean {
  const accept = req.headers["accept-encoding"];
  if (!opts.compress || !accept || !prefersGzip(accept)) return false;
  if (!/^application\/json\s*(?:;|$)/i.test(response.headers.get("content-type") ?? "")) return false;
  if (response.headers.has("content-encoding") || NO_TRANSFORM.test(response.headers.get("cache-control") ?? "")) return false;
  return length >= 1024;
}

function readWhole(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
    req.on("error", reject);
    req.on("close", () => reject(new Error("request closed before its body was read")));
  });
}
