import { describe, expect, it, beforeAll } from "vitest";
import { Api, baseUrl } from "./support/api";
import { newOrg, signedIn, userWith, TEST_PASSWORD, type OrgFixture } from "./support/fixtures";
import { linkParts } from "./support/identity";

describe("organization administration", () => {
  let org: OrgFixture;
  let other: OrgFixture;
  let owner: Api;
  beforeAll(async () => {
    org = await newOrg("Admin Org");
    other = await newOrg("Other Org");
    owner = await signedIn(org.email);
  });

  it("creates an API key shown once, lists it without the secret, and revokes it: its next call is 401", async () => {
    const key = "admin-test-create-key-1";
    const r = await owner.post("/api-keys", { name: "Export", scopes: ["obligations:read"] }, { idempotencyKey: key });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ name: "Export", scopes: ["obligations:read"], revoked_at: "", last_used_at: "" });
    expect(r.body.key).toMatch(/^fos_/);
    expect(r.body.key.startsWith(r.body.prefix)).toBe(true);

    const keyApi = new Api(baseUrl(), r.body.key);
    expect((await keyApi.get("/obligations")).status).toBe(200);
    // The scope is enforced like any other key's.
    expect((await keyApi.get("/payments")).body.error.code).toBe("insufficient_scope");

    // A replay of the same Idempotency-Key never shows the key again.
    const replay = await owner.post("/api-keys", { name: "Export", scopes: ["obligations:read"] }, { idempotencyKey: key });
    expect(replay.status).toBe(409);
    expect(replay.body.error.code).toBe("duplicate");
    expect(replay.body.error.message).toContain(r.body.id);
    expect(replay.text).not.toContain(r.body.key);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");

    const list = await owner.get("/api-keys");
    expect(list.status).toBe(200);
    const row = list.body.items.find((k: { id: string }) => k.id === r.body.id);
    expect(row).toMatchObject({ id: r.body.id, name: "Export", prefix: r.body.prefix, revoked_at: "" });
    expect(row.last_used_at).not.toBe("");
    expect(list.text).not.toContain(r.body.key);
    expect(Object.keys(row).sort()).toEqual(["created_at", "id", "last_used_at", "name", "prefix", "revoked_at", "scopes"]);

    expect((await owner.delete(`/api-keys/${r.body.id}`)).status).toBe(204);
    const after = await keyApi.get("/obligations");
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe("unauthenticated");
    const revoked = (await owner.get("/api-keys")).body.items.find((k: { id: string }) => k.id === r.body.id);
    expect(revoked.revoked_at).not.toBe("");
    expect((await owner.delete(`/api-keys/${r.body.id}`)).status).toBe(204);
  });

  it("refuses API keys with 403 insufficient_scope and members/viewers with 403 insufficient_permission", async () => {
    for (const [method, path] of [
      ["GET", "/api-keys"],
      ["POST", "/api-keys"],
      ["GET", "/members"],
      ["POST", "/members"],
    ] as const) {
      const r = await org.api.call(method, path, { body: method === "POST" ? {} : undefined });
      expect(r.status, `${method} ${path}`).toBe(403);
      expect(r.body.error.code).toBe("insufficient_scope");
    }
    for (const role of ["member", "viewer"] as const) {
      const u = await userWith(org, role);
      const api = await signedIn(u.email);
      const r = await api.get("/members");
      expect(r.status).toBe(403);
      expect(r.body.error.code).toBe("insufficient_permission");
      expect((await api.post("/api-keys", { name: "x", scopes: ["obligations:read"] })).body.error.code).toBe("insufficient_permission");
    }
    const admin = await userWith(org, "admin");
    expect((await (await signedIn(admin.email)).get("/api-keys")).status).toBe(200);
  });

  it("validates bodies with 422 naming the field", async () => {
    const cases: [string, unknown, string][] = [
      ["/api-keys", { name: "", scopes: ["obligations:read"] }, "body.name"],
      ["/api-keys", { name: "x", scopes: [] }, "body.scopes"],
      ["/api-keys", { name: "x", scopes: ["admin:everything"] }, "body.scopes"],
      ["/api-keys", { name: "x", scopes: ["obligations:read"], key: "mine" }, "body.key"],
      ["/members", { email: "not-an-email", role: "member" }, "body.email"],
      ["/members", { email: "a@example.test", role: "king" }, "body.role"],
      ["/members", { email: "a@example.test", role: "member", password: "a-long-password-1" }, "body.password"],
      ["/members", { email: "a@example.test", role: "member", sign_in: "password" }, "body.sign_in"],
    ];
    for (const [path, body, field] of cases) {
      const r = await owner.post(path, body);
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(r.body.error.code).toBe("validation_failed");
      expect(r.body.error.message).toContain(field);
    }
    const m = (await owner.get("/members")).body.items[0];
    const bad = await owner.call("PATCH", `/members/${m.id}`, { body: { role: "emperor" } });
    expect(bad.status).toBe(422);
    expect(bad.body.error.message).toContain("body.role");
  });

  it("invites a member, who signs in once they accepted with a password of their own", async () => {
    const email = `added-${Date.now()}@example.test`;
    const r = await owner.post("/members", { email: email.toUpperCase(), role: "viewer", name: "Vera" });
    expect(r.status).toBe(201);
    expect(r.body.member).toMatchObject({ email, role: "viewer", name: "Vera", status: "invited", password_set: false });
    await expect(signedIn(email, "an-own-password-1")).rejects.toThrow(/401/);
    const { id, token } = linkParts(r.body.invitation.url);
    expect((await new Api(baseUrl()).post(`/invitations/${id}/accept`, { token, password: "an-own-password-1" })).status).toBe(200);
    const vera = await signedIn(email, "an-own-password-1");
    expect((await vera.get("/session")).body.role).toBe("viewer");
    expect((await owner.post("/members", { email, role: "viewer" })).body.error.code).toBe("duplicate");
    const listed = (await owner.get("/members")).body.items.map((m: { email: string }) => m.email);
    expect(listed).toEqual(expect.arrayContaining([email, org.email]));
  });

  it("a role change applies to the member's next request: a demoted admin gets 403", async () => {
    const u = await userWith(org, "admin");
    const api = await signedIn(u.email);
    expect((await api.get("/members")).status).toBe(200);
    const m = (await owner.get("/members?limit=100")).body.items.find((x: { user_id: string }) => x.user_id === u.userId);
    const r = await owner.call("PATCH", `/members/${m.id}`, { body: { role: "viewer" } });
    expect(r.status).toBe(200);
    expect(r.body.role).toBe("viewer");
    const denied = await api.get("/members");
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe("insufficient_permission");
    expect((await api.get("/session")).body.role).toBe("viewer");
  });

  it("removing a member ends their sessions at once", async () => {
    const u = await userWith(org, "member");
    const a = await signedIn(u.email);
    const b = await signedIn(u.email);
    expect((await a.get("/obligations")).status).toBe(200);
    const m = (await owner.get("/members?limit=100")).body.items.find((x: { user_id: string }) => x.user_id === u.userId);
    expect((await owner.delete(`/members/${m.id}`)).status).toBe(204);
    for (const api of [a, b]) {
      const r = await api.get("/obligations");
      expect(r.status).toBe(401);
      expect(r.body.error.code).toBe("unauthenticated");
    }
    expect((await owner.delete(`/members/${m.id}`)).status).toBe(404);
    await expect(signedIn(u.email)).rejects.toThrow(/401/);
  });

  it("protects the last owner from demotion and removal (409 invalid_state); an admin cannot touch owners", async () => {
    const fresh = await newOrg("Single Owner Org");
    const api = await signedIn(fresh.email);
    const me = (await api.get("/members")).body.items[0];
    expect(me.role).toBe("owner");
    const demote = await api.call("PATCH", `/members/${me.id}`, { body: { role: "admin" } });
    expect(demote.status).toBe(409);
    expect(demote.body.error.code).toBe("invalid_state");
    const remove = await api.delete(`/members/${me.id}`);
    expect(remove.status).toBe(409);
    expect(remove.body.error.code).toBe("invalid_state");
    expect((await api.get("/session")).body.role).toBe("owner");

    const adminUser = await userWith(fresh, "admin");
    const admin = await signedIn(adminUser.email);
    expect((await admin.call("PATCH", `/members/${me.id}`, { body: { role: "viewer" } })).body.error.code).toBe("insufficient_permission");
    expect((await admin.delete(`/members/${me.id}`)).body.error.code).toBe("insufficient_permission");
    expect((await admin.post("/members", { email: `o-${Date.now()}@example.test`, role: "owner" })).status).toBe(403);

    // With a second owner, the first may step down.
    const adminRow = (await api.get("/members")).body.items.find((x: { user_id: string }) => x.user_id === adminUser.userId);
    expect((await api.call("PATCH", `/members/${adminRow.id}`, { body: { role: "owner" } })).status).toBe(200);
    expect((await api.call("PATCH", `/members/${me.id}`, { body: { role: "admin" } })).status).toBe(200);
    const last = await admin.call("PATCH", `/members/${adminRow.id}`, { body: { role: "member" } });
    expect(last.body.error.code).toBe("invalid_state");
  });

  it("keeps tenants apart: another organization's key or member is 404", async () => {
    const theirs = (await (await signedIn(other.email)).get("/members")).body.items[0];
    expect((await owner.call("PATCH", `/members/${theirs.id}`, { body: { role: "viewer" } })).status).toBe(404);
    expect((await owner.delete(`/members/${theirs.id}`)).status).toBe(404);
    const otherOwner = await signedIn(other.email);
    const key = await otherOwner.post("/api-keys", { name: "theirs", scopes: ["obligations:read"] });
    expect((await owner.delete(`/api-keys/${key.body.id}`)).status).toBe(404);
    expect((await new Api(baseUrl(), key.body.key).get("/obligations")).status).toBe(200);
    expect((await owner.get("/api-keys?limit=100")).body.items.map((k: { id: string }) => k.id)).not.toContain(key.body.id);
    expect((await owner.delete("/api-keys/not-a-uuid")).status).toBe(404);
  });

  it("lists own sessions with the current one flagged and signs out everywhere else", async () => {
    const u = await userWith(org, "viewer");
    const a = await signedIn(u.email);
    const b = await signedIn(u.email);
    const list = await a.get("/session/sessions");
    expect(list.status).toBe(200);
    expect(list.body.items).toHaveLength(2);
    expect(list.body.items[0]).toMatchObject({ current: true, method: "password" });
    expect(list.body.items[1].current).toBe(false);
    expect(list.body.items[0].last_seen_at).not.toBe("");
    expect((await org.api.get("/session/sessions")).status).toBe(401);
    expect((await a.delete("/session/sessions")).status).toBe(204);
    expect((await a.get("/session")).status).toBe(200);
    expect((await b.get("/session")).status).toBe(401);
    expect((await a.get("/session/sessions")).body.items).toHaveLength(1);
  });

  it("changing the own password ends the other sessions and the new one signs in", async () => {
    const u = await userWith(org, "member");
    const a = await signedIn(u.email);
    const b = await signedIn(u.email);
    expect((await a.post("/session/password", { current_password: TEST_PASSWORD, new_password: "another-long-password" })).status).toBe(204);
    expect((await b.get("/session")).status).toBe(401);
    const c = await signedIn(u.email, "another-long-password");
    expect((await c.get("/session/sessions")).body.items).toHaveLength(1);
  });
});
