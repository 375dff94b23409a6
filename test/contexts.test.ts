import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { Api, baseUrl } from "./support/api";
import { apiKeyWith, newOrg, signedIn, userWith, type OrgFixture } from "./support/fixtures";

const CONTEXT_KEYS = ["id", "type", "kind", "type_label", "name", "reference", "external_reference", "created_at"].sort();

async function createContext(api: Api, body: Record<string, unknown>) {
  const r = await api.post("/business-contexts", body);
  if (r.status !== 201) throw new Error(`create context failed: ${r.status} ${r.text}`);
  return r.body as { id: string; name: string; reference: string; type: string; kind: string };
}

async function relate(api: Api, from: string, to: string, relationship_type: string) {
  return api.post(`/business-contexts/${from}/relationships`, { related_context_id: to, relationship_type });
}

describe("POST /business-contexts", () => {
  let org: OrgFixture;
  beforeAll(async () => {
    org = await newOrg();
  });

  it('creates a context with kind and type_label defaulted from the type, unset strings "" and external_reference null', async () => {
    const expected = {
      company: ["company", "Company"],
      project: ["group", "Project"],
      order: ["reference", "Order"],
      invoice: ["reference", "Invoice"],
      external_object: ["reference", "External object"],
    } as const;
    for (const [type, [kind, label]] of Object.entries(expected)) {
      const r = await org.api.post("/business-contexts", { type, name: `My ${type}` });
      expect(r.status).toBe(201);
      expect(Object.keys(r.body).sort()).toEqual(CONTEXT_KEYS);
      expect(r.body).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        type,
        kind,
        type_label: label,
        name: `My ${type}`,
        reference: "",
        external_reference: null,
        created_at: expect.any(String),
      });
      expect(new Date(r.body.created_at).toISOString()).toBe(r.body.created_at);
    }
  });

  it("keeps explicit kind, type_label, reference and external_reference, and GET returns the same resource", async () => {
    const r = await org.api.post("/business-contexts", {
      type: "company",
      kind: "group",
      name: "  Acme Holding  ",
      reference: "ACME-H",
      type_label: "Holding",
      external_reference: { namespace: "erp", id: "C-100" },
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      type: "company",
      kind: "group",
      name: "Acme Holding",
      reference: "ACME-H",
      type_label: "Holding",
      external_reference: { namespace: "erp", id: "C-100" },
    });
    const g = await org.api.get(`/business-contexts/${r.body.id}`);
    expect(g.status).toBe(200);
    const { relationships, relationship_count, obligations, obligation_count, totals, ...ctx } = g.body;
    expect(ctx).toEqual(r.body);
    expect(relationships).toEqual([]);
    expect(relationship_count).toBe(0);
    expect(obligations).toEqual([]);
    expect(obligation_count).toBe(0);
    expect(totals).toEqual([]);
  });

  it("treats an empty type_label as absent", async () => {
    const r = await org.api.post("/business-contexts", { type: "external_object", name: "Ticket", type_label: "" });
    expect(r.status).toBe(201);
    expect(r.body.type_label).toBe("External object");
  });

  it("rejects invalid bodies with 422 validation_failed naming the field", async () => {
    const cases: [unknown, string][] = [
      [{ name: "x" }, "body.type"],
      [{ type: "planet", name: "x" }, "body.type"],
      [{ type: "company" }, "body.name"],
      [{ type: "company", name: "   " }, "body.name"],
      [{ type: "company", name: "x", kind: "tree" }, "body.kind"],
      [{ type: "company", name: "x", colour: "red" }, "body.colour"],
      [{ type: "company", name: "x", external_reference: { namespace: "erp" } }, "body.external_reference.id"],
      [{ type: "company", name: "x".repeat(201) }, "body.name"],
      [{ type: "company", name: "x", reference: 42 }, "body.reference"],
    ];
    for (const [body, field] of cases) {
      const r = await org.api.post("/business-contexts", body);
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(r.body).toEqual({ error: { code: "validation_failed", message: expect.stringContaining(field) } });
    }
  });

  it("requires an Idempotency-Key and replays a retry byte-for-byte without creating a second context", async () => {
    const missing = await org.api.post("/business-contexts", { type: "order", name: "O-1" }, { idempotencyKey: null });
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe("idempotency_key_required");

    const key = `ctx-${randomUUID()}`;
    const body = { type: "order", name: "Replay order", reference: `R-${randomUUID()}` };
    const a = await org.api.post("/business-contexts", body, { idempotencyKey: key });
    const b = await org.api.post("/business-contexts", body, { idempotencyKey: key });
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.text).toBe(a.text);
    expect(b.headers.get("idempotent-replayed")).toBe("true");
    const list = await org.api.get(`/business-contexts?search=${encodeURIComponent(body.reference)}`);
    expect(list.body.items).toHaveLength(1);

    const reused = await org.api.post("/business-contexts", { ...body, name: "Other" }, { idempotencyKey: key });
    expect(reused.status).toBe(422);
    expect(reused.body.error.code).toBe("idempotency_key_reused");
  });

  it("needs contexts:write (API key scope) / a role that grants it", async () => {
    const readOnly = await apiKeyWith(org, ["contexts:read"]);
    const r = await readOnly.post("/business-contexts", { type: "company", name: "Nope" });
    expect(r.status).toBe(403);
    expect(r.body.error.code).toBe("insufficient_scope");
    expect((await readOnly.get("/business-contexts")).status).toBe(200);

    const noContexts = await apiKeyWith(org, ["obligations:read"]);
    const g = await noContexts.get("/business-contexts");
    expect(g.status).toBe(403);
    expect(g.body.error.code).toBe("insufficient_scope");

    const viewer = await userWith(org, "viewer");
    const v = await signedIn(viewer.email);
    const vp = await v.post("/business-contexts", { type: "company", name: "Nope" });
    expect(vp.status).toBe(403);
    expect(vp.body.error.code).toBe("insufficient_permission");
    expect((await v.get("/business-contexts")).status).toBe(200);

    const member = await userWith(org, "member");
    const m = await signedIn(member.email);
    expect((await m.post("/business-contexts", { type: "company", name: "Member-made" })).status).toBe(201);

    const anon = new Api(baseUrl());
    const a = await anon.get("/business-contexts");
    expect(a.status).toBe(401);
    expect(a.body.error.code).toBe("unauthenticated");
  });
});

describe("GET /business-contexts", () => {
  let org: OrgFixture;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    org = await newOrg();
    // Created in this order: the list is newest first.
    const specs: [string, Record<string, unknown>][] = [
      ["acme", { type: "company", name: "Acme Construction", reference: "ACM-001" }],
      ["harbour", { type: "project", name: "Harbour Renovation", reference: "PRJ-HARBOUR" }],
      ["po", { type: "order", name: "Purchase order 7781", reference: "PO-7781" }],
      ["inv", { type: "invoice", name: "Invoice for ACME", reference: "INV-2026-1" }],
      ["jira", { type: "external_object", name: "Ticket", reference: "JIRA-42", external_reference: { namespace: "jira", id: "42" } }],
      ["group", { type: "company", kind: "group", name: "Northwind Group", reference: "" }],
      ["pct", { type: "order", name: "Discount 100%_off", reference: "" }],
    ];
    for (const [k, body] of specs) ids[k] = (await createContext(org.api, body)).id;
  });

  const names = (r: { body: { items: { id: string }[] } }) => r.body.items.map((i) => Object.entries(ids).find(([, id]) => id === i.id)?.[0]);

  it("lists newest first in the {items, limit, offset} envelope with defaults 50/0", async () => {
    const r = await org.api.get("/business-contexts");
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(["items", "limit", "offset"]);
    expect(r.body.limit).toBe(50);
    expect(r.body.offset).toBe(0);
    expect(names(r)).toEqual(["pct", "group", "jira", "inv", "po", "harbour", "acme"]);
    for (const item of r.body.items) expect(Object.keys(item).sort()).toEqual(CONTEXT_KEYS);
    expect(r.body.items.find((i: { id: string }) => i.id === ids.jira).external_reference).toEqual({ namespace: "jira", id: "42" });
  });

  it("pages with limit and offset, stably and without overlap", async () => {
    const seen: string[] = [];
    for (let offset = 0; offset < 8; offset += 3) {
      const r = await org.api.get(`/business-contexts?limit=3&offset=${offset}`);
      expect(r.status).toBe(200);
      expect(r.body.limit).toBe(3);
      expect(r.body.offset).toBe(offset);
      seen.push(...r.body.items.map((i: { id: string }) => i.id));
    }
    expect(seen).toEqual((await org.api.get("/business-contexts")).body.items.map((i: { id: string }) => i.id));
    expect((await org.api.get("/business-contexts?offset=100")).body.items).toEqual([]);
    for (const q of ["limit=0", "limit=101", "offset=-1", "limit=abc"]) {
      const r = await org.api.get(`/business-contexts?${q}`);
      expect(r.status, q).toBe(422);
      expect(r.body.error.code).toBe("validation_failed");
    }
  });

  it("filters by context_kind", async () => {
    expect(names(await org.api.get("/business-contexts?context_kind=company"))).toEqual(["acme"]);
    expect(names(await org.api.get("/business-contexts?context_kind=group"))).toEqual(["group", "harbour"]);
    expect(names(await org.api.get("/business-contexts?context_kind=reference"))).toEqual(["pct", "jira", "inv", "po"]);
  });

  it("still honours the deprecated context_type filter, alone and combined with context_kind", async () => {
    expect(names(await org.api.get("/business-contexts?context_type=company"))).toEqual(["group", "acme"]);
    expect(names(await org.api.get("/business-contexts?context_type=external_object"))).toEqual(["jira"]);
    expect(names(await org.api.get("/business-contexts?context_type=company&context_kind=group"))).toEqual(["group"]);
    expect(names(await org.api.get("/business-contexts?context_type=project&context_kind=company"))).toEqual([]);
  });

  it("treats empty filter values as no filter", async () => {
    const r = await org.api.get("/business-contexts?context_type=&context_kind=&search=");
    expect(r.status).toBe(200);
    expect(r.body.items).toHaveLength(7);
  });

  it("rejects unknown filter values and unknown query parameters with 422", async () => {
    for (const q of ["context_kind=project", "context_type=group", "colour=red"]) {
      const r = await org.api.get(`/business-contexts?${q}`);
      expect(r.status, q).toBe(422);
      expect(r.body.error.code).toBe("validation_failed");
      expect(r.body.error.message).toContain(`query.${q.split("=")[0]}`);
    }
  });

  it("searches name and reference case-insensitively (substring)", async () => {
    expect(names(await org.api.get("/business-contexts?search=acme"))).toEqual(["inv", "acme"]);
    expect(names(await org.api.get("/business-contexts?search=ACME"))).toEqual(["inv", "acme"]);
    expect(names(await org.api.get("/business-contexts?search=harb"))).toEqual(["harbour"]);
    expect(names(await org.api.get("/business-contexts?search=po-77"))).toEqual(["po"]);
    expect(names(await org.api.get("/business-contexts?search=jira-42"))).toEqual(["jira"]);
    expect(names(await org.api.get("/business-contexts?search=RENOVATION&context_kind=group"))).toEqual(["harbour"]);
    expect(names(await org.api.get("/business-contexts?search=RENOVATION&context_kind=company"))).toEqual([]);
    expect(names(await org.api.get("/business-contexts?search=nothing-like-this"))).toEqual([]);
  });

  it("matches % and _ in search literally", async () => {
    expect(names(await org.api.get(`/business-contexts?search=${encodeURIComponent("100%_")}`))).toEqual(["pct"]);
    expect(names(await org.api.get(`/business-contexts?search=${encodeURIComponent("%")}`))).toEqual(["pct"]);
    expect(names(await org.api.get(`/business-contexts?search=${encodeURIComponent("_")}`))).toEqual(["pct"]);
  });

  it("never shows another organization's contexts", async () => {
    const other = await newOrg("Other Org");
    await createContext(other.api, { type: "company", name: "Acme Construction", reference: "ACM-001" });
    const mine = await org.api.get("/business-contexts?search=acme");
    expect(names(mine)).toEqual(["inv", "acme"]);
    const theirs = await other.api.get("/business-contexts");
    expect(theirs.body.items).toHaveLength(1);
    expect(theirs.body.items[0].id).not.toBe(ids.acme);
  });
});

describe("GET /business-contexts/{id} and relationships", () => {
  let org: OrgFixture;
  let other: OrgFixture;
  beforeAll(async () => {
    [org, other] = await Promise.all([newOrg(), newOrg("Other Org")]);
  });

  it("is 404 for an unknown, a malformed and a foreign id", async () => {
    const foreign = await createContext(other.api, { type: "company", name: "Theirs" });
    for (const id of [randomUUID(), "not-a-uuid", foreign.id]) {
      const r = await org.api.get(`/business-contexts/${id}`);
      expect(r.status, id).toBe(404);
      expect(r.body).toEqual({ error: { code: "not_found", message: expect.any(String) } });
    }
  });

  it("relates two contexts and shows the relationship from both sides", async () => {
    const company = await createContext(org.api, { type: "company", name: "Acme", reference: "ACM" });
    const project = await createContext(org.api, { type: "project", name: "Bridge", reference: "PRJ-B" });
    const r = await relate(org.api, project.id, company.id, "commissioned_by");
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      id: expect.any(String),
      context_id: project.id,
      related_context_id: company.id,
      relationship_type: "commissioned_by",
      direction: "outgoing",
      related_context: { id: company.id, type: "company", kind: "company", type_label: "Company", name: "Acme", reference: "ACM" },
      created_at: expect.any(String),
    });

    const p = await org.api.get(`/business-contexts/${project.id}`);
    expect(p.status).toBe(200);
    expect(p.body.relationships).toEqual([
      {
        id: r.body.id,
        relationship_type: "commissioned_by",
        direction: "outgoing",
        related_context: r.body.related_context,
        created_at: r.body.created_at,
      },
    ]);
    expect(p.body.relationship_count).toBe(1);

    const c = await org.api.get(`/business-contexts/${company.id}`);
    expect(c.body.relationships).toEqual([
      {
        id: r.body.id,
        relationship_type: "commissioned_by",
        direction: "incoming",
        related_context: { id: project.id, type: "project", kind: "group", type_label: "Project", name: "Bridge", reference: "PRJ-B" },
        created_at: r.body.created_at,
      },
    ]);
  });

  it("refuses self-relationships, unknown and foreign related ids with 422 naming body.related_context_id", async () => {
    const a = await createContext(org.api, { type: "order", name: "A" });
    const foreign = await createContext(other.api, { type: "order", name: "Foreign" });
    for (const target of [a.id, randomUUID(), foreign.id]) {
      const r = await relate(org.api, a.id, target, "related");
      expect(r.status, target).toBe(422);
      expect(r.body).toEqual({ error: { code: "validation_failed", message: expect.stringContaining("body.related_context_id") } });
    }
    const bad = await relate(org.api, a.id, "nope", "related");
    expect(bad.status).toBe(422);
    expect(bad.body.error.message).toContain("body.related_context_id");
    expect((await org.api.get(`/business-contexts/${a.id}`)).body.relationships).toEqual([]);
  });

  it("is 404 for an unknown, malformed or foreign path id", async () => {
    const a = await createContext(org.api, { type: "order", name: "A" });
    const foreign = await createContext(other.api, { type: "order", name: "Foreign" });
    for (const id of [randomUUID(), "not-a-uuid", foreign.id]) {
      const r = await relate(org.api, id, a.id, "related");
      expect(r.status, id).toBe(404);
      expect(r.body.error.code).toBe("not_found");
    }
    // The other organization cannot relate its context to ours either.
    const r = await relate(other.api, foreign.id, a.id, "related");
    expect(r.status).toBe(422);
  });

  it("validates the relationship body", async () => {
    const a = await createContext(org.api, { type: "order", name: "A" });
    const b = await createContext(org.api, { type: "order", name: "B" });
    const cases: [unknown, string][] = [
      [{ related_context_id: b.id }, "body.relationship_type"],
      [{ related_context_id: b.id, relationship_type: "" }, "body.relationship_type"],
      [{ related_context_id: b.id, relationship_type: "x".repeat(101) }, "body.relationship_type"],
      [{ relationship_type: "related" }, "body.related_context_id"],
      [{ related_context_id: b.id, relationship_type: "related", weight: 1 }, "body.weight"],
    ];
    for (const [body, field] of cases) {
      const r = await org.api.post(`/business-contexts/${a.id}/relationships`, body);
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(r.body.error.message).toContain(field);
    }
  });

  it("refuses a duplicate (same pair and type) with 409 duplicate, but allows another type and the reverse direction", async () => {
    const a = await createContext(org.api, { type: "company", name: "A" });
    const b = await createContext(org.api, { type: "company", name: "B" });
    expect((await relate(org.api, a.id, b.id, "supplies")).status).toBe(201);
    const dup = await relate(org.api, a.id, b.id, "supplies");
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual({ error: { code: "duplicate", message: expect.any(String) } });
    expect((await relate(org.api, a.id, b.id, "partner_of")).status).toBe(201);
    expect((await relate(org.api, b.id, a.id, "supplies")).status).toBe(201);
    const detail = await org.api.get(`/business-contexts/${a.id}`);
    expect(detail.body.relationship_count).toBe(3);
    expect(detail.body.relationships.map((r: { relationship_type: string; direction: string }) => `${r.direction}:${r.relationship_type}`).sort()).toEqual([
      "incoming:supplies",
      "outgoing:partner_of",
      "outgoing:supplies",
    ]);
  });

  it("creates exactly one relationship when the same one is requested concurrently", async () => {
    const a = await createContext(org.api, { type: "company", name: "A" });
    const b = await createContext(org.api, { type: "company", name: "B" });
    const results = await Promise.all(Array.from({ length: 6 }, () => relate(org.api, a.id, b.id, "owns")));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409]);
    for (const r of results.filter((x) => x.status === 409)) expect(r.body.error.code).toBe("duplicate");
    expect((await org.api.get(`/business-contexts/${a.id}`)).body.relationships).toHaveLength(1);
  });

  it("allows cycles A -> B -> C -> A and reads every member without looping", async () => {
    const a = await createContext(org.api, { type: "company", name: "Cycle A" });
    const b = await createContext(org.api, { type: "project", name: "Cycle B" });
    const c = await createContext(org.api, { type: "order", name: "Cycle C" });
    const ab = await relate(org.api, a.id, b.id, "next");
    const bc = await relate(org.api, b.id, c.id, "next");
    const ca = await relate(org.api, c.id, a.id, "next");
    for (const r of [ab, bc, ca]) expect(r.status).toBe(201);

    const expectations: [typeof a, typeof a, typeof a, string, string][] = [
      [a, b, c, ab.body.id, ca.body.id],
      [b, c, a, bc.body.id, ab.body.id],
      [c, a, b, ca.body.id, bc.body.id],
    ];
    for (const [self, next, prev, outId, inId] of expectations) {
      const d = await org.api.get(`/business-contexts/${self.id}`);
      expect(d.status).toBe(200);
      expect(d.body.relationship_count).toBe(2);
      const out = d.body.relationships.find((r: { direction: string }) => r.direction === "outgoing");
      const inc = d.body.relationships.find((r: { direction: string }) => r.direction === "incoming");
      expect(out).toMatchObject({ id: outId, relationship_type: "next", related_context: { id: next.id, name: next.name } });
      expect(inc).toMatchObject({ id: inId, relationship_type: "next", related_context: { id: prev.id, name: prev.name } });
    }
    // Also a two-cycle (A <-> B) is fine.
    expect((await relate(org.api, b.id, a.id, "next")).status).toBe(201);
    expect((await org.api.get(`/business-contexts/${a.id}`)).body.relationship_count).toBe(3);
  });

  it("needs contexts:write for relationships and contexts:read for the detail", async () => {
    const a = await createContext(org.api, { type: "company", name: "A" });
    const b = await createContext(org.api, { type: "company", name: "B" });
    const readOnly = await apiKeyWith(org, ["contexts:read"]);
    const r = await relate(readOnly, a.id, b.id, "related");
    expect(r.status).toBe(403);
    expect(r.body.error.code).toBe("insufficient_scope");
    expect((await readOnly.get(`/business-contexts/${a.id}`)).status).toBe(200);
    const writeOnly = await apiKeyWith(org, ["contexts:write"]);
    expect((await writeOnly.get(`/business-contexts/${a.id}`)).status).toBe(403);
  });
});

describe("OpenAPI document", () => {
  it("describes the business-context endpoints, with context_type deprecated", async () => {
    const r = await new Api(baseUrl()).get("/openapi.json");
    expect(r.status).toBe(200);
    const paths = r.body.paths;
    expect(Object.keys(paths["/business-contexts"]).sort()).toEqual(["get", "post"]);
    expect(paths["/business-contexts/{id}"].get).toBeDefined();
    expect(paths["/business-contexts/{id}/relationships"].post).toBeDefined();
    const params = paths["/business-contexts"].get.parameters as {
      name: string;
      in: string;
      deprecated?: boolean;
      schema: { enum?: string[]; default?: unknown };
    }[];
    const byName = Object.fromEntries(params.map((p) => [p.name, p]));
    expect(byName.context_type.deprecated).toBe(true);
    expect(byName.context_type.schema.enum).toEqual(["", "company", "project", "order", "invoice", "external_object"]);
    expect(byName.context_kind.deprecated).toBeUndefined();
    expect(byName.context_kind.schema.enum).toEqual(["", "company", "group", "reference"]);
    expect(byName.search.in).toBe("query");
    expect(byName.limit.schema.default).toBe(50);
    expect(paths["/business-contexts"].post.responses["201"]).toBeDefined();
    expect(paths["/business-contexts/{id}/relationships"].post.responses["201"]).toBeDefined();
    expect(paths["/business-contexts/{id}/relationships"].post.responses["409"]).toBeDefined();
    expect(paths["/business-contexts/{id}"].get.responses["404"]).toBeDefined();
    const body = paths["/business-contexts"].post.requestBody.content["application/json"].schema;
    expect(body.required.sort()).toEqual(["name", "type"]);
    expect(body.additionalProperties).toBe(false);
  });
});
