import { randomUUID } from "node:crypto";
import { describe, expect, it, beforeAll } from "vitest";
import { inject } from "vitest";
import { Api } from "./support/api";
import { newOrg, type OrgFixture } from "./support/fixtures";
import { registration } from "./support/bodies";
import { startServer } from "./support/server";

async function countByExternalId(api: Api, externalId: string): Promise<number> {
  let n = 0;
  for (let offset = 0; ; offset += 100) {
    const page = await api.get(`/obligations?limit=100&offset=${offset}`);
    expect(page.status).toBe(200);
    n += page.body.items.filter((o: any) => o.external_reference.id === externalId).length;
    if (page.body.items.length < 100) return n;
  }
}

describe("Idempotency-Key", () => {
  let org: OrgFixture;
  beforeAll(async () => {
    org = await newOrg();
  });

  it("replays the stored response byte for byte with Idempotent-Replayed: true, and has one effect", async () => {
    const key = `replay-${randomUUID()}`;
    const body = registration();
    const first = await org.api.post("/obligations", body, { idempotencyKey: key });
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    // Same body with its keys in another order is the same request.
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const again = await org.api.post("/obligations", reordered, { idempotencyKey: key });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.text).toBe(first.text);
    expect(await countByExternalId(org.api, body.external_reference.id)).toBe(1);
  });

  it("refuses the same key with a different body or path (422 idempotency_key_reused)", async () => {
    const key = `reuse-${randomUUID()}`;
    expect((await org.api.post("/obligations", registration(), { idempotencyKey: key })).status).toBe(201);
    const other = await org.api.post("/obligations", registration({ amount_minor: "1" }), { idempotencyKey: key });
    expect(other.status).toBe(422);
    expect(other.body).toEqual({ error: { code: "idempotency_key_reused", message: expect.any(String) } });
    const otherPath = await org.api.post(
      "/invoices",
      { invoice_number: "X-1", amount_minor: "100", currency: "EUR", due_date: "2026-12-31", recipient: { name: "R" } },
      { idempotencyKey: key },
    );
    expect(otherPath.status).toBe(422);
    expect(otherPath.body.error.code).toBe("idempotency_key_reused");
  });

  it("requires a key of 8 to 200 characters (400 idempotency_key_required)", async () => {
    for (const key of [null, "short77", "k".repeat(201)]) {
      const r = await org.api.post("/obligations", registration(), { idempotencyKey: key });
      expect(r.status, String(key)).toBe(400);
      expect(r.body.error.code).toBe("idempotency_key_required");
    }
    expect((await org.api.post("/obligations", registration(), { idempotencyKey: "k".repeat(200) })).status).toBe(201);
    expect((await org.api.post("/obligations", registration(), { idempotencyKey: "k".repeat(8) })).status).toBe(201);
  });

  it("stores 4xx validation responses and replays them too", async () => {
    const key = `invalid-${randomUUID()}`;
    const bad = registration({ amount_minor: "12.50" });
    const first = await org.api.post("/obligations", bad, { idempotencyKey: key });
    expect(first.status).toBe(422);
    expect(first.body.error.code).toBe("validation_failed");
    expect(first.body.error.message).toContain("body.amount_minor");
    const again = await org.api.post("/obligations", bad, { idempotencyKey: key });
    expect(again.status).toBe(422);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.text).toBe(first.text);
  });

  it("scopes keys per organization", async () => {
    const other = await newOrg("Other Org");
    const key = `shared-${randomUUID()}`;
    const a = await org.api.post("/obligations", registration(), { idempotencyKey: key });
    const b = await other.api.post("/obligations", registration(), { idempotencyKey: key });
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.headers.get("idempotent-replayed")).toBeNull();
    expect(b.body.obligation.organization_id).toBe(other.organizationId);
  });

  it("20 concurrent requests with one key execute exactly once", async () => {
    const key = `race-${randomUUID()}`;
    const body = registration();
    const results = await Promise.all(Array.from({ length: 20 }, () => org.api.post("/obligations", body, { idempotencyKey: key })));
    const statuses = results.map((r) => r.status);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    for (const r of results.filter((r) => r.status === 409)) expect(r.body.error.code).toBe("idempotency_request_in_progress");
    const ids = new Set(results.filter((r) => r.status === 201).map((r) => r.body.obligation.id));
    expect(ids.size).toBe(1);
    expect(await countByExternalId(org.api, body.external_reference.id)).toBe(1);
  });

  it("two server instances on one database still execute a key exactly once", async () => {
    const second = await startServer({ databaseUrl: inject("databaseUrl"), label: "second", env: { WEBHOOK_WORKER: "off" } });
    try {
      const apis = [org.api, new Api(second.baseUrl, org.apiKey)];
      for (let round = 0; round < 3; round++) {
        const key = `two-instances-${randomUUID()}`;
        const body = registration();
        const results = await Promise.all(Array.from({ length: 20 }, (_, i) => apis[i % 2].post("/obligations", body, { idempotencyKey: key })));
        expect(results.every((r) => r.status === 201 || r.status === 409)).toBe(true);
        expect(new Set(results.filter((r) => r.status === 201).map((r) => r.body.obligation.id)).size).toBe(1);
        expect(await countByExternalId(org.api, body.external_reference.id)).toBe(1);
      }
    } finally {
      await second.stop();
    }
  });
});
