import { randomUUID } from "node:crypto";
import { inject } from "vitest";
import { checkAgainstDocument } from "./contract";

export type ApiResponse<T = any> = { status: number; headers: Headers; body: T; text: string };

export type CallOptions = {
  body?: unknown;
  form?: FormData;
  headers?: Record<string, string>;
  idempotencyKey?: string | null; // null: send none; undefined on POST: a fresh one
  auth?: string | null; // API key; null: none
  cookie?: string;
};

// The request body of a call: the form as it is, else the body as JSON (its content-type set).
export function requestBody(o: { body?: unknown; form?: FormData }, headers: Record<string, string>): BodyInit | undefined {
  if (o.form) return o.form;
  if (o.body === undefined) return undefined;
  headers["content-type"] = "application/json";
  return typeof o.body === "string" ? o.body : JSON.stringify(o.body);
}

// The response read once (JSON when it parses), checked against the served OpenAPI document.
export async function answer<T>(baseUrl: string, method: string, path: string, res: Response): Promise<ApiResponse<T>> {
  const text = await res.text();
  let parsed: any;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  const result = { status: res.status, headers: res.headers, body: parsed as T, text };
  await checkAgainstDocument(baseUrl, method, path, result);
  return result;
}

// A small HTTP client for the real server.
export class Api {
  constructor(
    readonly baseUrl: string,
    readonly apiKey?: string,
    public cookie?: string,
  ) {}

  async call<T = any>(method: string, path: string, o: CallOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...o.headers };
    const key = o.auth === undefined ? this.apiKey : o.auth;
    if (key) headers.authorization = `Bearer ${key}`;
    const cookie = o.cookie ?? this.cookie;
    if (cookie) headers.cookie = cookie;
    if (method === "POST" && o.idempotencyKey !== null) headers["idempotency-key"] = o.idempotencyKey ?? `test-${randomUUID()}`;
    const res = await fetchOnce(`${this.baseUrl}/api/v1${path}`, { method, headers, body: requestBody(o, headers), redirect: "manual" });
    return answer<T>(this.baseUrl, method, path, res);
  }

  get<T = any>(path: string, o?: CallOptions) {
    return this.call<T>("GET", path, o);
  }
  post<T = any>(path: string, body?: unknown, o: CallOptions = {}) {
    return this.call<T>("POST", path, { ...o, body });
  }
  delete<T = any>(path: string, o?: CallOptions) {
    return this.call<T>("DELETE", path, o);
  }
  patch<T = any>(path: string, body?: unknown, o: CallOptions = {}) {
    return this.call<T>("PATCH", path, { ...o, body });
  }
}

// A keep-alive socket can be closed by the server just as the client reuses it (its idle
// timer fires); like any HTTP client, retry once on a fresh connection. Safe for POSTs:
// the request carries the same Idempotency-Key, so it never executes twice.
export async function fetchOnce(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (err) {
    const code = (err as { cause?: { code?: string } }).cause?.code;
    if (code !== "UND_ERR_SOCKET" && code !== "ECONNRESET" && code !== "EPIPE") throw err;
    return fetch(url, init);
  }
}

export const baseUrl = () => inject("baseUrl");
export const backend = () => inject("backend");

// Sets-Cookie header -> "name=value" pairs for a Cookie header.
export function cookieFrom(res: ApiResponse): string {
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}
