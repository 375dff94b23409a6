import { describe, expect, it, beforeAll } from "vitest";
import { Api, baseUrl } from "./support/api";
import { apiKeyWith, newOrg, signedIn, userWith, type OrgFixture } from "./support/fixtures";
import { registration } from "./support/bodies";

describe("authentication, scopes, roles and tenant isolation", () => {
  let a: OrgFixture;
  let b: OrgFixture;
  let obligationId: string;
  beforeAll(async () => {
    a = await newOrg("Org A");
    b = await newOrg("Org B");
    const r = await a.api.post("/obligations", registration());
    expect(r.status).toBe(201);
    obligationId = r.body.obligation.id;
  });

  it("401 without credentials or with an unknown key", async () => {
    for (const api of [new Api(baseUrl()), new Api(baseUrl(), "fos_unknown"), new Api(baseUrl(), "")]) {
      const r = await api.get("/obligations");
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ error: { code: "unauthenticated", message: expect.any(String) } });
    }
  });

  it("403 insufficient_scope for an API key without the endpoint's scope", async () => {
    const reader = await apiKeyWith(a, ["obligations:read"]);
    expect((await reader.get(`/obligations/${obligationId}`)).status).toBe(200);
    const w = await reader.post("/obligations", registration());
    expect(w.status).toBe(403);
    expect(w.body.error.code).toBe("insufficient_scope");
    const payer = await apiKeyWith(a, ["payments:read"]);
    const r = await payer.get("/obligations");
    expect(r.status).toBe(403);
    expect(r.body.error.code).toBe("insufficient_scope");
  });

  it("403 insufficient_permission for a signed-in role without the permission", async () => {
    const viewer = await signedIn((await userWith(a, "viewer")).email);
    expect((await viewer.get("/obligations")).status).toBe(200);
    const w = await viewer.post("/obligations", registration());
    expect(w.status).toBe(403);
    expect(w.body.error.code).toBe("insufficient_permission");
    const member = await signedIn((await userWith(a, "member")).email);
    expect((await member.post("/obligations", registration())).status).toBe(201);
  });

  it("an id of another organization is 404, exactly like an unknown id", async () => {
    const foreign = await b.api.get(`/obligations/${obligationId}`);
    const unknown = await b.api.get(`/obligations/00000000-0000-4000-8000-000000000000`);
    for (const r of [foreign, unknown]) {
      expect(r.status).toBe(404);
      expect(r.body.error.code).toBe("not_found");
    }
    expect(foreign.body.error.message).toBe(unknown.body.error.message);
    const act = await b.api.post(`/obligations/${obligationId}/actions`, { action: "mark_sent", expected_version: 1 });
    expect(act.status).toBe(404);
    const list = await b.api.get("/obligations?limit=100");
    expect(list.body.items.map((o: any) => o.id)).not.toContain(obligationId);
  });

  it("a malformed id in a path is 404 not_found, never 500", async () => {
    for (const id of ["not-a-uuid", "1", "00000000-0000-4000-8000-00000000000Z"]) {
      const r = await a.api.get(`/obligations/${id}`);
      expect(r.status, id).toBe(404);
      expect(r.body.error.code).toBe("not_found");
    }
  });
});
