"use client";

import { newIdempotencyKey } from "@/lib/client/idempotency-key";

// Browser-side calls of our own API with the session cookie. Each mutation gets a fresh
// Idempotency-Key unless the caller passes one (to make a retried submission safe).
export type ApiError = { status: number; code: string; message: string };

export async function apiCall<T = unknown>(
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE",
  path: string,
  opts: { body?: unknown; form?: FormData; idempotencyKey?: string; headers?: Record<string, string> } = {},
): Promise<ApiResult<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  // POST always carries a key; PUT, PATCH and DELETE when the caller keeps one for retries.
  if (method === "POST") headers["idempotency-key"] = opts.idempotencyKey ?? newIdempotencyKey();
  else if (method !== "GET" && opts.idempotencyKey) headers["idempotency-key"] = opts.idempotencyKey;
  let body: BodyInit | undefined;
  if (opts.form) body = opts.form;
  else if (opts.body !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(opts.body);
  }
  let res: Response;
  try {
    res = await fetch(`/api/v1${path}`, { method, headers, body, credentials: "same-origin" });
  } catch {
    return NETWORK_FAILURE;
  }
  return apiResult<T>(res.status, await res.text());
}

export type ApiResult<T> = { ok: true; data: T } | { ok: false; error: ApiError };

// The request never got an answer (offline, DNS, connection reset).
export const NETWORK_FAILURE: { ok: false; error: ApiError } = {
  ok: false,
  error: { status: 0, code: "network_error", message: "The service could not be reached. Check your connection and try again." },
};

// An answer of the API: the JSON body on 2xx, else the error envelope's code and message.
export function apiResult<T>(status: number, text: string): ApiResult<T> {
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  if (status >= 200 && status < 300) return { ok: true, data: json as T };
  const e = (json as { error?: { code: string; message: string } } | undefined)?.error;
  return { ok: false, error: { status, code: e?.code ?? "error", message: e?.message ?? `Request failed (${status})` } };
}
