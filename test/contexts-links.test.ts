import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { Api } from "./support/api";
import { apiKeyWith, newOrg, type OrgFixture } from "./support/fixtures";
import { legacyBody, registerObligation } from "./support/obligations";

async function createContext(api: Api, body: Record<string, unknown>) {
  const r = await api.post("/business-contexts", body);
  if (r.status !== 201) throw new Error(`create context failed: ${r.status} ${r.text}`);
  return r.body as { id: string; name: string; reference: string; type: string; kind: string; type_label: string };
}

const link = (api: Api, obligationId: string, body: Record<string, unknown>, o: { idempotencyKey?: string } = {}) =>
  api.post(`/obligations/${obligationId}/business-contexts`, body, o);

const version = async (api: Api, obligationId: string): Promise<number> => (await api.get(`/obligations/${obligationId}`)).body.version;

const LINK_KEYS = [
  "id",
  "obligation_id",
  "context_id",
  "relationship_type",
  "attributed_minor",
  "currency",
  "created_at",
  "context",
  "obligation",
  "version",
  "operation_id",
  "event_type",
];

describe("POST /obligations/{id}/business-contexts", () => {
  let org: OrgFixture;
  let other: OrgFixture;
  beforeAll(async () => {
    [org, other] = await Promise.all([newOrg(), newOrg("Other Org")]);
  });

  it("links a context with an attributed amount: version + 1, event, context entry, projection", async () => {
    const ob = await registerObligation(org.api, legacyBody({ amount_minor: "125000", currency: "EUR" }));
    const id = ob.obligation.id;
    const project = await createContext(org.api, { type: "project", name: "Harbour", reference: "PRJ-H" });
    const r = await link(org.api, id, { context_id: project.id, relationship_type: "project", attributed_minor: "50000", expected_version: 1 });
    expect(r.status, r.text).toBe(201);
    expect(Object.keys(r.body).sort()).toEqual([...LINK_KEYS].sort());
    const entry = {
      id: project.id,
      type: "project",
      kind: "group",
      type_label: "Project",
      name: "Harbour",
      reference: "PRJ-H",
      relationship_type: "project",
      attributed_minor: "50000",
      currency: "EUR",
    };
    expect(r.body).toMatchObject({
      obligation_id: id,
      context_id: project.id,
      relationship_type: "project",
      attributed_minor: "50000",
      currency: "EUR",
      context: entry,
      version: 2,
      event_type: "obligation.context_linked",
    });
    expect(r.body.obligation.id).toBe(id);
    expect(r.body.obligation.version).toBe(2);
    expect(r.body.obligation.contexts).toEqual([entry]);

    const detail = await org.api.get(`/obligations/${id}`);
    expect(detail.body.version).toBe(2);
    expect(detail.body.contexts).toEqual([entry]);
    const ev = detail.body.audit_trail.find((e: { event_type: string }) => e.event_type === "obligation.context_linked");
    expect(ev).toMatchObject({ id: r.body.operation_id, detail: { link_id: r.body.id, context_id: project.id, attributed_minor: "50000" } });

    const ctx = await org.api.get(`/business-contexts/${project.id}`);
    expect(ctx.body.obligations).toEqual([
      {
        id,
        reference: ob.obligation.reference,
        status: "OBLIGATION_CAPTURED",
        amount_minor: "125000",
        allocated_minor: "0",
        currency: "EUR",
        relationship_type: "project",
        attributed_minor: "50000",
        link_id: r.body.id,
        linked_at: r.body.created_at,
      },
    ]);
  });

  it("defaults relationship_type to related and omits attributed_minor when none is given", async () => {
    const ob = await registerObligation(org.api);
    const company = await createContext(org.api, { type: "company", name: "Acme" });
    const r = await link(org.api, ob.obligation.id, { context_id: company.id, expected_version: 1 });
    expect(r.status, r.text).toBe(201);
    expect(r.body.relationship_type).toBe("related");
    expect(r.body.attributed_minor).toBeUndefined();
    expect(r.body.context).toEqual({
      id: company.id,
      type: "company",
      kind: "company",
      type_label: "Company",
      name: "Acme",
      reference: "",
      relationship_type: "related",
    });
    const ctx = await org.api.get(`/business-contexts/${company.id}`);
    expect(ctx.body.obligations[0].attributed_minor).toBeUndefined();
    expect(ctx.body.obligations[0].relationship_type).toBe("related");
  });

  it("refuses a stale expected_version with 409 version_conflict and changes nothing", async () => {
    const ob = await registerObligation(org.api);
    const a = await createContext(org.api, { type: "order", name: "A" });
    const b = await createContext(org.api, { type: "order", name: "B" });
    expect((await link(org.api, ob.obligation.id, { context_id: a.id, expected_version: 1 })).status).toBe(201);
    const stale = await link(org.api, ob.obligation.id, { context_id: b.id, expected_version: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body).toEqual({ error: { code: "version_conflict", message: expect.any(String) } });
    const ahead = await link(org.api, ob.obligation.id, { context_id: b.id, expected_version: 7 });
    expect(ahead.status).toBe(409);
    const detail = await org.api.get(`/obligations/${ob.obligation.id}`);
    expect(detail.body.version).toBe(2);
    expect(detail.body.contexts.map((c: { id: string }) => c.id)).toEqual([a.id]);
    expect((await org.api.get(`/business-contexts/${b.id}`)).body.obligations).toEqual([]);
  });

  it("refuses linking the same context twice with 409 duplicate (version unchanged)", async () => {
    const ob = await registerObligation(org.api);
    const a = await createContext(org.api, { type: "order", name: "A" });
    expect((await link(org.api, ob.obligation.id, { context_id: a.id, expected_version: 1 })).status).toBe(201);
    const dup = await link(org.api, ob.obligation.id, { context_id: a.id, relationship_type: "other", expected_version: 2 });
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual({ error: { code: "duplicate", message: expect.any(String) } });
    expect(await version(org.api, ob.obligation.id)).toBe(2);
  });

  it("a context linked at registration (context_ids) is a duplicate too, and shows in the context's detail", async () => {
    const a = await createContext(org.api, { type: "company", name: "Registered with" });
    const ob = await registerObligation(org.api, legacyBody({ context_ids: [a.id] }));
    const dup = await link(org.api, ob.obligation.id, { context_id: a.id, expected_version: 1 });
    expect(dup.status).toBe(409);
    expect(dup.body.error.code).toBe("duplicate");
    const ctx = await org.api.get(`/business-contexts/${a.id}`);
    expect(ctx.body.obligations.map((o: { id: string; relationship_type: string }) => [o.id, o.relationship_type])).toEqual([[ob.obligation.id, "related"]]);
  });

  it("is 404 for an unknown, malformed or foreign obligation", async () => {
    const a = await createContext(org.api, { type: "order", name: "A" });
    const foreign = await registerObligation(other.api);
    for (const id of [randomUUID(), "nope", foreign.obligation.id]) {
      const r = await link(org.api, id, { context_id: a.id, expected_version: 1 });
      expect(r.status, id).toBe(404);
      expect(r.body.error.code).toBe("not_found");
    }
    expect(await version(other.api, foreign.obligation.id)).toBe(1);
  });

  it("refuses an unknown or foreign context_id with 422 naming body.context_id", async () => {
    const ob = await registerObligation(org.api);
    const foreign = await createContext(other.api, { type: "order", name: "Theirs" });
    for (const contextId of [randomUUID(), foreign.id]) {
      const r = await link(org.api, ob.obligation.id, { context_id: contextId, expected_version: 1 });
      expect(r.status).toBe(422);
      expect(r.body).toEqual({ error: { code: "validation_failed", message: expect.stringContaining("body.context_id") } });
    }
    expect(await version(org.api, ob.obligation.id)).toBe(1);
  });

  it("validates the body", async () => {
    const ob = await registerObligation(org.api);
    const a = await createContext(org.api, { type: "order", name: "A" });
    const cases: [unknown, string][] = [
      [{ context_id: a.id }, "body.expected_version"],
      [{ context_id: a.id, expected_version: 0 }, "body.expected_version"],
      [{ context_id: a.id, expected_version: "1" }, "body.expected_version"],
      [{ expected_version: 1 }, "body.context_id"],
      [{ context_id: a.id, expected_version: 1, attributed_minor: "0" }, "body.attributed_minor"],
      [{ context_id: a.id, expected_version: 1, attributed_minor: 100 }, "body.attributed_minor"],
      [{ context_id: a.id, expected_version: 1, attributed_minor: "12.5" }, "body.attributed_minor"],
      [{ context_id: a.id, expected_version: 1, relationship_type: "" }, "body.relationship_type"],
      [{ context_id: a.id, expected_version: 1, currency: "EUR" }, "body.currency"],
    ];
    for (const [body, field] of cases) {
      const r = await link(org.api, ob.obligation.id, body as Record<string, unknown>);
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(r.body.error.code).toBe("validation_failed");
      expect(r.body.error.message).toContain(field);
    }
    expect(await version(org.api, ob.obligation.id)).toBe(1);
  });

  it("never lets the attributed amounts exceed the obligation's amount", async () => {
    const ob = await registerObligation(org.api, legacyBody({ amount_minor: "125000", currency: "USD" }));
    const id = ob.obligation.id;
    const [a, b, c, d] = await Promise.all(["A", "B", "C", "D"].map((n) => createContext(org.api, { type: "order", name: n })));
    const too = await link(org.api, id, { context_id: a.id, attributed_minor: "125001", expected_version: 1 });
    expect(too.status).toBe(422);
    expect(too.body).toEqual({ error: { code: "validation_failed", message: expect.stringContaining("body.attributed_minor") } });
    expect((await link(org.api, id, { context_id: a.id, attributed_minor: "100000", expected_version: 1 })).status).toBe(201);
    const over = await link(org.api, id, { context_id: b.id, attributed_minor: "25001", expected_version: 2 });
    expect(over.status).toBe(422);
    expect(over.body.error.message).toContain("body.attributed_minor");
    expect(over.body.error.message).toContain("25000");
    const exact = await link(org.api, id, { context_id: b.id, attributed_minor: "25000", expected_version: 2 });
    expect(exact.status).toBe(201);
    expect((await link(org.api, id, { context_id: c.id, attributed_minor: "1", expected_version: 3 })).status).toBe(422);
    // A link without an amount is always possible.
    expect((await link(org.api, id, { context_id: c.id, expected_version: 3 })).status).toBe(201);
    // The largest amount string is still refused cleanly (no overflow).
    const huge = await link(org.api, id, { context_id: d.id, attributed_minor: "9223372036854775807", expected_version: 4 });
    expect(huge.status).toBe(422);
    const detail = await org.api.get(`/obligations/${id}`);
    expect(detail.body.version).toBe(4);
    const sum = detail.body.contexts.reduce((s: bigint, x: { attributed_minor?: string }) => s + BigInt(x.attributed_minor ?? "0"), 0n);
    expect(sum).toBe(125000n);
  });

  it("keeps the bound under concurrent links (each retrying on version conflicts)", async () => {
    const ob = await registerObligation(org.api, legacyBody({ amount_minor: "100000", currency: "EUR" }));
    const id = ob.obligation.id;
    const contexts = await Promise.all(Array.from({ length: 8 }, (_, i) => createContext(org.api, { type: "order", name: `C${i}` })));
    const outcomes = await Promise.all(
      contexts.map(async (c) => {
        for (let attempt = 0; attempt < 60; attempt++) {
          const r = await link(org.api, id, { context_id: c.id, attributed_minor: "30000", expected_version: await version(org.api, id) });
          if (r.status === 409 && r.body.error.code === "version_conflict") continue;
          return r.status === 201 ? "linked" : `${r.status}:${r.body.error.code}`;
        }
        return "gave-up";
      }),
    );
    expect(outcomes.filter((o) => o === "linked")).toHaveLength(3);
    expect(outcomes.filter((o) => o === "422:validation_failed")).toHaveLength(5);
    const detail = await org.api.get(`/obligations/${id}`);
    expect(detail.body.version).toBe(4);
    expect(detail.body.contexts).toHaveLength(3);
    expect(detail.body.contexts.every((x: { attributed_minor: string }) => x.attributed_minor === "30000")).toBe(true);
  });

  it("lets exactly one of many concurrent links with the same expected_version through", async () => {
    const ob = await registerObligation(org.api, legacyBody({ amount_minor: "100000" }));
    const id = ob.obligation.id;
    const contexts = await Promise.all(Array.from({ length: 6 }, (_, i) => createContext(org.api, { type: "order", name: `R${i}` })));
    const results = await Promise.all(contexts.map((c) => link(org.api, id, { context_id: c.id, attributed_minor: "60000", expected_version: 1 })));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    // Losers: version_conflict (or, if one read the winner's committed amount first, the bound).
    for (const r of results.filter((x) => x.status !== 201)) expect(["version_conflict", "validation_failed"]).toContain(r.body.error.code);
    const detail = await org.api.get(`/obligations/${id}`);
    expect(detail.body.version).toBe(2);
    expect(detail.body.contexts).toHaveLength(1);
  });

  it("replays a retried link without a second version bump", async () => {
    const ob = await registerObligation(org.api);
    const a = await createContext(org.api, { type: "invoice", name: "Replay" });
    const key = `link-${randomUUID()}`;
    const body = { context_id: a.id, expected_version: 1 };
    const first = await link(org.api, ob.obligation.id, body, { idempotencyKey: key });
    const again = await link(org.api, ob.obligation.id, body, { idempotencyKey: key });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.text).toBe(first.text);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await version(org.api, ob.obligation.id)).toBe(2);
  });

  it("needs obligations:write", async () => {
    const ob = await registerObligation(org.api);
    const a = await createContext(org.api, { type: "order", name: "A" });
    for (const scopes of [
      ["obligations:read", "contexts:write"],
      ["contexts:read", "contexts:write"],
    ] as const) {
      const key = await apiKeyWith(org, [...scopes]);
      const r = await link(key, ob.obligation.id, { context_id: a.id, expected_version: 1 });
      expect(r.status).toBe(403);
      expect(r.body.error.code).toBe("insufficient_scope");
    }
    const writer = await apiKeyWith(org, ["obligations:write"]);
    expect((await link(writer, ob.obligation.id, { context_id: a.id, expected_version: 1 })).status).toBe(201);
  });
});

describe("context detail: related obligations and totals", () => {
  let org: OrgFixture;
  beforeAll(async () => {
    org = await newOrg();
  });

  it("sums linked obligations by currency and status", async () => {
    const project = await createContext(org.api, { type: "project", name: "Totals" });
    const e1 = await registerObligation(org.api, legacyBody({ amount_minor: "100000", currency: "EUR", context_ids: [project.id] }));
    const e2 = await registerObligation(org.api, legacyBody({ amount_minor: "50000", currency: "EUR" }));
    const e3 = await registerObligation(org.api, legacyBody({ amount_minor: "7000", currency: "EUR" }));
    const u1 = await registerObligation(org.api, legacyBody({ amount_minor: "9999", currency: "USD" }));
    expect((await link(org.api, e2.obligation.id, { context_id: project.id, attributed_minor: "20000", expected_version: 1 })).status).toBe(201);
    expect((await link(org.api, u1.obligation.id, { context_id: project.id, attributed_minor: "9999", expected_version: 1 })).status).toBe(201);
    expect((await link(org.api, e3.obligation.id, { context_id: project.id, attributed_minor: "3000", expected_version: 1 })).status).toBe(201);
    const sent = await org.api.post(`/obligations/${e3.obligation.id}/actions`, { action: "mark_sent", expected_version: 2 });
    expect(sent.status, sent.text).toBe(200);
    // Not linked: must not count.
    await registerObligation(org.api, legacyBody({ amount_minor: "123", currency: "EUR" }));

    const d = await org.api.get(`/business-contexts/${project.id}`);
    expect(d.status).toBe(200);
    expect(d.body.obligation_count).toBe(4);
    expect(d.body.obligations.map((o: { id: string }) => o.id)).toEqual([e3.obligation.id, u1.obligation.id, e2.obligation.id, e1.obligation.id]);
    expect(d.body.obligations[0].status).toBe("PAYMENT_REQUESTED");
    expect(d.body.totals).toEqual([
      { currency: "EUR", status: "OBLIGATION_CAPTURED", obligation_count: 2, amount_minor: "150000", allocated_minor: "0", attributed_minor: "20000" },
      { currency: "EUR", status: "PAYMENT_REQUESTED", obligation_count: 1, amount_minor: "7000", allocated_minor: "0", attributed_minor: "3000" },
      { currency: "USD", status: "OBLIGATION_CAPTURED", obligation_count: 1, amount_minor: "9999", allocated_minor: "0", attributed_minor: "9999" },
    ]);
  });

  it("describes the link endpoint in the OpenAPI document", async () => {
    const doc = (await org.api.get("/openapi.json")).body;
    const op = doc.paths["/obligations/{id}/business-contexts"].post;
    expect(op.responses["201"]).toBeDefined();
    expect(op.responses["409"]).toBeDefined();
    expect(op.security).toEqual([{ apiKey: ["obligations:write"] }, { issuerSession: [] }]);
    const schema = op.requestBody.content["application/json"].schema;
    expect(schema.required.sort()).toEqual(["context_id", "expected_version"]);
    expect(Object.keys(schema.properties).sort()).toEqual(["attributed_minor", "context_id", "expected_version", "relationship_type"]);
  });
});
