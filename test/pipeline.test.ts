import { readFileSync } from "node:fs";
import { describe, expect, it, beforeAll } from "vitest";
import { inject } from "vitest";
import { Api, baseUrl, cookieFrom } from "./support/api";
import { newOrg, TEST_PASSWORD, type OrgFixture } from "./support/fixtures";

describe("request pipeline", () => {
  let org: OrgFixture;
  beforeAll(async () => {
    org = await newOrg();
  });

  it("answers unknown /api/v1 paths with the 404 envelope", async () => {
    const r = await org.api.get("/no-such-thing");
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: { code: "not_found", message: expect.any(String) } });
  });

  it("answers a malformed percent-encoding in any path segment with the 404 envelope", async () => {
    for (const path of ["/obligations/%", "/invoices/%zz", "/recipient/contexts/%C3%28/invoice", "/payments/%2e/allocations", "/obligations/%00"]) {
      for (const method of ["GET", "POST"]) {
        const r = await org.api.call(method, path, { body: method === "POST" ? {} : undefined });
        expect(r.headers.get("content-type"), `${method} ${path}`).toMatch(/^application\/json/);
        // `/payments/%2e/allocations` is normalized to `/payments/allocations`: GET is an unknown
        // payment (404), POST a method that path does not serve (405).
        const code = r.status === 405 ? "method_not_allowed" : "not_found";
        expect([404, 405]).toContain(r.status);
        if (r.status === 405) expect(path).toBe("/payments/%2e/allocations");
        expect(r.body, `${method} ${path}`).toEqual({ error: { code, message: expect.any(String) } });
      }
    }
  });

  it("answers a method the path does not serve with the 405 envelope, never an empty body", async () => {
    for (const [method, path] of [
      ["DELETE", "/obligations"],
      ["POST", "/payments/" + "5f4e3d2c-1b0a-4d8c-b7a6-0f9e8d7c6b5a"],
      ["DELETE", "/webhook-endpoints"],
    ]) {
      const r = await org.api.call(method, path);
      expect(r.status, `${method} ${path}`).toBe(405);
      expect(r.body).toEqual({ error: { code: "method_not_allowed", message: expect.any(String) } });
    }
  });

  it("answers every method a documented path does not serve with the 405 envelope and Allow (each route file's own answer)", async () => {
    const doc = (await org.api.get("/openapi.json")).body as { paths: Record<string, Record<string, unknown>> };
    const id = "5f4e3d2c-1b0a-4d8c-b7a6-0f9e8d7c6b5a";
    const checked: string[] = [];
    for (const [template, item] of Object.entries(doc.paths)) {
      const served = Object.keys(item).map((m) => m.toUpperCase());
      const path = template.replace(/\{currency\}/g, "EUR").replace(/\{[^}]+\}/g, id);
      const others = ["GET", "POST", "PUT", "PATCH", "DELETE"].filter((m) => !served.includes(m));
      if (!served.includes("GET")) others.push("HEAD");
      for (const method of others) {
        const r = await org.api.call(method, path, { body: method === "POST" || method === "PUT" || method === "PATCH" ? {} : undefined });
        expect(r.status, `${method} ${template}`).toBe(405);
        expect(new Set(r.headers.get("allow")?.split(", ")), `${method} ${template}`).toEqual(new Set(served));
        if (method !== "HEAD") expect(r.body, `${method} ${template}`).toEqual({ error: { code: "method_not_allowed", message: expect.any(String) } });
        checked.push(`${method} ${template}`);
      }
    }
    expect(checked.length).toBeGreaterThan(150);
  });

  it("refuses JSON nested deeper than 32 levels with 400 before parsing, and text PostgreSQL cannot store with 422 naming the field", async () => {
    const deep = `{"obligation_type":${'{"a":'.repeat(10_000)}1${"}".repeat(10_000)}}`;
    const r = await org.api.post("/obligations", deep);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: { code: "malformed_request", message: expect.stringContaining("32") } });
    const anon = new Api(baseUrl());
    const nul = await anon.post("/session", { email: "a\u0000@example.test", password: "x" }, { idempotencyKey: null });
    expect(nul.status).toBe(422);
    expect(nul.body).toEqual({ error: { code: "validation_failed", message: expect.stringContaining("body.email") } });
    const surrogate = await org.api.post("/webhook-endpoints", { url: "https://example.com/\ud800", secret: "whsec-0123456789abcdef-0123456789abcdef" });
    expect(surrogate.status).toBe(422);
    expect(surrogate.body.error.message).toContain("body.url");
    const query = await org.api.get("/obligations?search=%00");
    expect([200, 422]).toContain(query.status);
    if (query.status === 422) expect(query.body.error.code).toBe("validation_failed");
  });

  it("refuses a JSON body above 1 MiB with 413 payload_too_large", async () => {
    const big = JSON.stringify({ email: "x".repeat(1024 * 1024 + 10), password: "p" });
    const r = await new Api(baseUrl()).post("/session", big, { idempotencyKey: null });
    expect(r.status).toBe(413);
    expect(r.body.error.code).toBe("payload_too_large");
  });

  it("refuses a non-Bearer authorization header with 401", async () => {
    const r = await new Api(baseUrl()).call("GET", "/session", { headers: { authorization: "Basic abc" } });
    expect(r.status).toBe(401);
    expect(r.body.error.code).toBe("unauthenticated");
  });

  it("gives every response a request id, echoing a well-formed caller id", async () => {
    const r = await org.api.get("/session", { headers: { "x-request-id": "caller-req-123" } });
    expect(r.headers.get("x-request-id")).toBe("caller-req-123");
    const r2 = await org.api.get("/session", { headers: { "x-request-id": "bad id with spaces" } });
    expect(r2.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("never writes credentials, passwords or session tokens to the log", async () => {
    const anon = new Api(baseUrl());
    const signIn = await anon.post("/session", { email: org.email, password: TEST_PASSWORD }, { idempotencyKey: null });
    expect(signIn.status).toBe(200);
    const sessionToken = cookieFrom(signIn).split("=")[1];
    await anon.get("/session", { cookie: cookieFrom(signIn) });
    await org.api.get("/session");
    await new Promise((r) => setTimeout(r, 300));
    const log = readFileSync(inject("logFile"), "utf8");
    expect(log).toContain('"msg":"request"');
    expect(log).not.toContain(org.apiKey);
    expect(log).not.toContain(TEST_PASSWORD);
    expect(log).not.toContain(sessionToken);
  });
});
