import { describe, expect, it, beforeAll } from "vitest";
import { Api, baseUrl, cookieFrom } from "./support/api";
import { newOrg, signedIn, userWith, TEST_PASSWORD, type OrgFixture } from "./support/fixtures";

describe("issuer sessions", () => {
  let org: OrgFixture;
  beforeAll(async () => {
    org = await newOrg();
  });

  it("signs in with email and password, sets an HttpOnly SameSite=Strict cookie, and describes the session", async () => {
    const anon = new Api(baseUrl());
    const r = await anon.post("/session", { email: org.email.toUpperCase(), password: TEST_PASSWORD }, { idempotencyKey: null });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ user: { id: org.userId, email: org.email }, organization: { id: org.organizationId }, role: "owner" });
    expect(Date.parse(r.body.expires_at)).toBeGreaterThan(Date.now());
    const setCookie = r.headers.getSetCookie().join("\n");
    expect(setCookie).toMatch(/fos_session=/);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    const me = await anon.get("/session", { cookie: cookieFrom(r) });
    expect(me.status).toBe(200);
    expect(me.body.user.id).toBe(org.userId);
    expect(me.body.organization.id).toBe(org.organizationId);
  });

  it("refuses a wrong password and an unknown email alike with 401 unauthenticated", async () => {
    const anon = new Api(baseUrl());
    const wrong = await anon.post("/session", { email: org.email, password: "nope-nope-nope" }, { idempotencyKey: null });
    const unknown = await anon.post("/session", { email: "nobody@example.test", password: "whatever-123" }, { idempotencyKey: null });
    for (const r of [wrong, unknown]) {
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ error: { code: "unauthenticated", message: expect.any(String) } });
    }
  });

  it("validates the login body strictly", async () => {
    const anon = new Api(baseUrl());
    const r = await anon.post("/session", { email: org.email, password: TEST_PASSWORD, remember: true }, { idempotencyKey: null });
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe("validation_failed");
    expect(r.body.error.message).toContain("body.remember");
    const bad = await anon.post("/session", "{not json", { idempotencyKey: null });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("malformed_request");
  });

  it("refuses an API key on GET and DELETE /session", async () => {
    expect((await org.api.get("/session")).status).toBe(401);
    expect((await org.api.delete("/session")).status).toBe(401);
  });

  it("signs out: the cookie stops working", async () => {
    const api = await signedIn(org.email);
    expect((await api.get("/session")).status).toBe(200);
    expect((await api.delete("/session")).status).toBe(204);
    const after = await api.get("/session");
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe("unauthenticated");
  });

  it("changing the password revokes every session of the user and the new password works", async () => {
    const u = await userWith(org, "member");
    const a = await signedIn(u.email);
    const b = await signedIn(u.email);
    const wrong = await a.post("/session/password", { current_password: "not-the-password", new_password: "a-brand-new-password" });
    expect(wrong.status).toBe(422);
    expect((await b.get("/session")).status).toBe(200);
    const ok = await a.post("/session/password", { current_password: u.password, new_password: "a-brand-new-password" });
    expect(ok.status).toBe(204);
    expect((await a.get("/session")).status).toBe(401);
    expect((await b.get("/session")).status).toBe(401);
    await expect(signedIn(u.email, u.password)).rejects.toThrow(/401/);
    const c = await signedIn(u.email, "a-brand-new-password");
    expect((await c.get("/session")).status).toBe(200);
  });

  it("throttles repeated failed sign-ins with 429 and Retry-After", async () => {
    const u = await userWith(org, "viewer");
    const anon = new Api(baseUrl());
    let last: any;
    for (let i = 0; i < 11; i++) last = await anon.post("/session", { email: u.email, password: "wrong-password!" }, { idempotencyKey: null });
    expect(last!.status).toBe(429);
    expect(last!.body.error.code).toBe("rate_limited");
    expect(Number(last!.headers.get("retry-after"))).toBeGreaterThan(0);
    // Even the right password is refused while throttled.
    const right = await anon.post("/session", { email: u.email, password: u.password }, { idempotencyKey: null });
    expect(right.status).toBe(429);
  });
});
