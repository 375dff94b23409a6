import { describe, expect, it } from "vitest";
import { Api, baseUrl } from "./support/api";

// Every endpoint of the contract, as the served OpenAPI document must describe it.
const CONTRACT = `
POST /invoices
GET /invoices
GET /invoices/{id}
POST /invoices/{id}/actions
GET /invoices/{id}/delivery
POST /invoices/{id}/documents
GET /invoices/{id}/documents/{document}
POST /obligations
GET /obligations
GET /obligations/{id}
POST /obligations/{id}/actions
POST /obligations/{id}/conditions/{condition}/satisfy
POST /obligations/{id}/documents
GET /obligations/{id}/documents/{document}
GET /obligations/{id}/payment-request
POST /obligations/{id}/business-contexts
GET /business-contexts
POST /business-contexts
GET /business-contexts/{id}
POST /business-contexts/{id}/relationships
GET /payments
POST /payments
GET /payments/{id}
POST /payments/{id}/allocations
POST /recipient/session
POST /recipient/contexts/{request}/session
GET /recipient/invoice
GET /recipient/contexts/{request}/invoice
POST /recipient/actions
POST /recipient/contexts/{request}/actions
POST /recipient/documents
POST /recipient/contexts/{request}/documents
GET /recipient/documents/{document}
GET /recipient/contexts/{request}/documents/{document}
POST /webhook-endpoints
GET /webhook-endpoints
GET /webhook-deliveries
POST /webhook-deliveries/{id}/retry
POST /session
GET /session
DELETE /session
POST /session/password
`
  .trim()
  .split("\n")
  .map((l) => l.trim());

describe("contract coverage", () => {
  it("the OpenAPI document describes every endpoint of the contract", async () => {
    const doc = (await new Api(baseUrl()).get("/openapi.json")).body;
    const served = new Set(
      Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([p, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`)),
    );
    expect(CONTRACT.filter((e) => !served.has(e))).toEqual([]);
  });

  it("every contract endpoint is routed: without credentials it answers in the error envelope, never 404 or 405", async () => {
    const api = new Api(baseUrl());
    const id = "00000000-0000-4000-8000-000000000000";
    for (const entry of CONTRACT) {
      const [method, template] = entry.split(" ");
      const path = template.replace(/\{[^}]+\}/g, id);
      const r = await api.call(method, path, { body: method === "POST" ? {} : undefined, idempotencyKey: "contract-coverage-key" });
      expect([404, 405], entry).not.toContain(r.status);
      if (r.status >= 400) expect(r.body?.error?.code, entry).toEqual(expect.any(String));
    }
  });
});
