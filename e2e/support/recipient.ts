import { randomUUID } from "node:crypto";
import { expect } from "@playwright/test";
import { newOrgWithOwner } from "./fixtures";

// Helpers of the payer-page browser tests: the issuer's side goes through the real API.

const BASE = () => process.env.E2E_BASE_URL as string;

// A call of our API with the given credential headers (an Idempotency-Key on every
// mutation); a refusal fails the test with the envelope.
export async function apiCall(auth: Record<string, string>, method: string, path: string, body?: unknown, form?: FormData) {
  const headers: Record<string, string> = { ...auth };
  if (method !== "GET" && method !== "DELETE") headers["idempotency-key"] = `e2e-${randomUUID()}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(`${BASE()}/api/v1${path}`, { method, headers, body: form ?? (body === undefined ? undefined : JSON.stringify(body)) });
  const json = (await res.json().catch(() => undefined)) as any;
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

// An issuer: its API key and an owner's session cookie (for the session-only endpoints).
export type Issuer = { apiKey: string; cookie: string; name: string };

export async function newIssuer(name: string): Promise<Issuer> {
  const org = await newOrgWithOwner(name);
  const res = await fetch(`${BASE()}/api/v1/session`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: org.email, password: org.password }),
  });
  expect(res.status).toBe(200);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  return { apiKey: org.api_key, cookie, name };
}

// A call as the issuer: with its API key, or its session (`session`).
export function issuerCall(issuer: Issuer, method: string, path: string, body?: unknown, opts: { session?: boolean; form?: FormData } = {}) {
  return apiCall(opts.session ? { cookie: issuer.cookie } : { authorization: `Bearer ${issuer.apiKey}` }, method, path, body, opts.form);
}
