import { randomUUID } from "node:crypto";
import { answer, fetchOnce, requestBody, type ApiResponse } from "./api";

// A browser-like client for the recipient API: one cookie jar that honours each cookie's
// Path (RFC 6265 path matching), so cookies of two links can live in it side by side.
export type StoredCookie = { name: string; value: string; path: string; attributes: string[] };

export class CookieJar {
  cookies: StoredCookie[] = [];

  store(setCookies: string[]): void {
    for (const sc of setCookies) {
      const [pair, ...attrs] = sc.split(";").map((s) => s.trim());
      const i = pair.indexOf("=");
      const name = pair.slice(0, i);
      const value = pair.slice(i + 1);
      const path = attrs.find((a) => /^path=/i.test(a))?.slice(5) ?? "/";
      const maxAge = attrs.find((a) => /^max-age=/i.test(a));
      this.cookies = this.cookies.filter((c) => !(c.name === name && c.path === path));
      if (maxAge && Number(maxAge.slice(8)) <= 0) continue;
      this.cookies.push({ name, value, path, attributes: attrs });
    }
  }

  header(requestPath: string): string {
    return this.cookies
      .filter((c) => requestPath === c.path || requestPath.startsWith(c.path.endsWith("/") ? c.path : `${c.path}/`))
      .sort((a, b) => b.path.length - a.path.length)
      .map((c) => `${c.name}=${c.value}`)
      .join("; ");
  }
}

export type RecipientCall = {
  body?: unknown;
  form?: FormData;
  headers?: Record<string, string>;
  marker?: boolean;
  idempotencyKey?: string | null;
  cookie?: string;
};

export class RecipientClient {
  jar = new CookieJar();
  constructor(readonly baseUrl: string) {}

  async call<T = any>(method: string, path: string, o: RecipientCall = {}): Promise<ApiResponse<T>> {
    const full = `/api/v1${path}`;
    const headers: Record<string, string> = { ...o.headers };
    const cookie = o.cookie ?? this.jar.header(full);
    if (cookie) headers.cookie = cookie;
    if (method === "POST" && o.idempotencyKey !== null) headers["idempotency-key"] = o.idempotencyKey ?? `rcp-${randomUUID()}`;
    if (method === "POST" && o.marker !== false) headers["x-service-request"] = "1";
    const res = await fetchOnce(`${this.baseUrl}${full}`, { method, headers, body: requestBody(o, headers), redirect: "manual" });
    this.jar.store(res.headers.getSetCookie());
    return answer<T>(this.baseUrl, method, path, res);
  }

  get<T = any>(path: string, o?: RecipientCall) {
    return this.call<T>("GET", path, o);
  }
  post<T = any>(path: string, body?: unknown, o: RecipientCall = {}) {
    return this.call<T>("POST", path, { ...o, body });
  }
}

export const tokenOf = (hostedUrl: string): string => new URL(hostedUrl).hash.slice(1);
export const requestIdOf = (hostedUrl: string): string => new URL(hostedUrl).pathname.split("/").pop()!;
