import { beforeAll, describe, expect, it } from "vitest";
import { Api, baseUrl } from "./support/api";
import { apiKeyWith, newOrg, signedIn, userWith, type OrgFixture } from "./support/fixtures";
import { createInvoice } from "./support/obligations";

// Credentials on every /obligations and /invoices endpoint: none -> 401, an API key without
// the scope -> 403 insufficient_scope, a viewer on a write -> 403 insufficient_permission.
describe("obligation and invoice endpoints: authentication and authorization", () => {
  let org: OrgFixture;
  let ids: { id: string; cond: string; doc: string };
  beforeAll(async () => {
    org = await newOrg("Auth Matrix Ltd");
    const { invoice } = await createInvoice(org.api);
    const f = new FormData();
    f.append("expected_version", "1");
    f.append("file", new Blob([new TextEncoder().encode("hello")]), "a.txt");
    const up = await org.api.call("POST", `/invoices/${invoice.id}/documents`, { form: f });
    expect(up.status).toBe(201);
    ids = { id: invoice.id, cond: "00000000-0000-4000-8000-000000000001", doc: up.body.document_id };
  });

  const endpoints = () => {
    const { id, cond, doc } = ids;
    return [
      ["POST", "/invoices", "write"],
      ["GET", "/invoices", "read"],
      ["GET", `/invoices/${id}`, "read"],
      ["POST", `/invoices/${id}/actions`, "write"],
      ["GET", `/invoices/${id}/delivery`, "write"], // the draft holds the hosted URL, a write capability
      ["POST", `/invoices/${id}/documents`, "write"],
      ["GET", `/invoices/${id}/documents/${doc}`, "read"],
      ["POST", "/obligations", "write"],
      ["GET", "/obligations", "read"],
      ["GET", `/obligations/${id}`, "read"],
      ["POST", `/obligations/${id}/actions`, "write"],
      ["POST", `/obligations/${id}/conditions/${cond}/satisfy`, "write"],
      ["POST", `/obligations/${id}/documents`, "write"],
      ["GET", `/obligations/${id}/documents/${doc}`, "read"],
      ["GET", `/obligations/${id}/payment-request`, "write"],
    ] as const;
  };

  it("401 unauthenticated without a credential or with an unknown key", async () => {
    const anon = new Api(baseUrl());
    const bogus = new Api(baseUrl(), "fos_bogus_key_000000000000000000000000");
    for (const [method, path] of endpoints()) {
      for (const api of [anon, bogus]) {
        const r = await api.call(method, path, { body: method === "POST" ? {} : undefined });
        expect(r.status, `${method} ${path}`).toBe(401);
        expect(r.body.error.code).toBe("unauthenticated");
      }
    }
  });

  it("403 insufficient_scope for a key without obligations scopes; read-only keys only read", async () => {
    const payments = await apiKeyWith(org, ["payments:read", "payments:write", "contexts:read"]);
    const reader = await apiKeyWith(org, ["obligations:read"]);
    for (const [method, path, need] of endpoints()) {
      const r = await payments.call(method, path, { body: method === "POST" ? {} : undefined });
      expect(r.status, `${method} ${path}`).toBe(403);
      expect(r.body.error.code).toBe("insufficient_scope");
      const rr = await reader.call(method, path, { body: method === "POST" ? {} : undefined });
      if (need === "write") {
        expect(rr.status, `${method} ${path}`).toBe(403);
        expect(rr.body.error.code).toBe("insufficient_scope");
      } else expect(rr.status, `${method} ${path}`).toBe(200);
    }
  });

  it("a viewer reads but gets 403 insufficient_permission on writes", async () => {
    const viewer = await userWith(org, "viewer");
    const v = await signedIn(viewer.email);
    for (const [method, path, need] of endpoints()) {
      const r = await v.call(method, path, { body: method === "POST" ? {} : undefined });
      if (need === "write") {
        expect(r.status, `${method} ${path}`).toBe(403);
        expect(r.body.error.code).toBe("insufficient_permission");
      } else expect(r.status, `${method} ${path}`).toBe(200);
    }
  });
});
