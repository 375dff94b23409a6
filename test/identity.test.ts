import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { db, sql } from "@/lib/db/client";
import { Api, baseUrl } from "./support/api";
import { newOrg, signedIn, type OrgFixture } from "./support/fixtures";
import { accept, invite, linkParts } from "./support/identity";

// Identity (docs/administration.md, Members, docs/administration.md): one account per email, credentials
// set only by the person (invitation, reset link) or the operator, never by an organization.
const fresh = (what: string) => `${what}-${randomUUID()}@example.test`;
const anon = () => new Api(baseUrl());
const signIn = (email: string, password: string, organizationId?: string) =>
  anon().post("/session", { email, password, ...(organizationId ? { organization_id: organizationId } : {}) }, { idempotencyKey: null });

describe("invitations", () => {
  let org: OrgFixture;
  let owner: Api;
  beforeAll(async () => {
    org = await newOrg("Inviting Org");
    owner = await signedIn(org.email);
  });

  it("invites with a link shown once; a replay of the Idempotency-Key never holds the token", async () => {
    const email = fresh("new");
    const key = `invite-${randomUUID()}`;
    const r = await owner.post("/members", { email: email.toUpperCase(), role: "viewer", name: "Nia" }, { idempotencyKey: key });
    expect(r.status, r.text).toBe(201);
    expect(r.body.member).toMatchObject({ email, role: "viewer", status: "invited", password_set: false });
    const { id, token, path } = linkParts(r.body.invitation.url);
    expect(r.body.invitation.url).toMatch(/^https?:\/\/[^/]+\/invite\/[0-9a-f-]{36}#[A-Za-z0-9_-]+$/);
    expect(path).toBe(`/invite/${id}`);
    expect(token.length).toBeGreaterThanOrEqual(40);
    const days = (Date.parse(r.body.invitation.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);

    const replay = await owner.post("/members", { email: email.toUpperCase(), role: "viewer", name: "Nia" }, { idempotencyKey: key });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.status).toBe(409);
    expect(replay.body.error.code).toBe("duplicate");
    expect(replay.body.error.message).toContain(r.body.member.id);
    expect(replay.text).not.toContain(token);

    const list = await owner.get("/members?limit=100");
    const row = list.body.items.find((m: { id: string }) => m.id === r.body.member.id);
    expect(row).toMatchObject({ status: "invited", email });
    expect(list.text).not.toContain(token);
    expect(list.body.items.find((m: { email: string }) => m.email === org.email).status).toBe("active");
    // the stored row holds the hash only
    const rows = await sql<{ token_hash: string }>(db(), "SELECT token_hash FROM invitations WHERE id = $1::uuid", [id]);
    expect(rows[0].token_hash).not.toContain(token);

    // an invitee cannot sign in before accepting; a second invitation of the same email is 409
    expect((await signIn(email, "whatever-password-1")).status).toBe(401);
    const again = await owner.post("/members", { email, role: "viewer" });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("duplicate");
  });

  it("the organization can no longer choose a password: sign_in and password are refused (422)", async () => {
    for (const body of [
      { email: fresh("x"), role: "member", sign_in: "password", password: "an-initial-password-1" },
      { email: fresh("x"), role: "member", password: "an-initial-password-1" },
      { email: fresh("x"), role: "member", sign_in: "identity_provider" },
    ]) {
      const r = await owner.post("/members", body);
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(r.body.error.code).toBe("validation_failed");
    }
  });

  it("a new account sets its own password (at least 12 characters) and lands in the inviting organization", async () => {
    const email = fresh("newcomer");
    const { memberId, url } = await invite(owner, email, "member");
    const short = await accept(url, { password: "short" });
    expect(short.r.status).toBe(422);
    expect(short.r.body.error.message).toContain("password");
    const none = await accept(url, {});
    expect(none.r.status).toBe(422);

    const ok = await accept(url, { password: "my-very-own-password" });
    expect(ok.r.status, ok.r.text).toBe(200);
    expect(ok.r.body).toMatchObject({ user: { email }, organization: { id: org.organizationId, name: "Inviting Org" }, role: "member" });
    expect(ok.r.headers.getSetCookie().join("\n")).toMatch(/fos_session=.*HttpOnly.*SameSite=Strict/);
    const me = await ok.api.get("/session");
    expect(me.status).toBe(200);
    expect(me.body.organizations).toEqual([{ id: org.organizationId, name: "Inviting Org", role: "member" }]);
    const row = (await owner.get("/members?limit=100")).body.items.find((m: { id: string }) => m.id === memberId);
    expect(row).toMatchObject({ status: "active", password_set: true });
    expect((await signIn(email, "my-very-own-password")).status).toBe(200);

    // used: 410; a wrong token or an unknown id: 404
    const used = await accept(url, { password: "my-very-own-password" });
    expect(used.r.status).toBe(410);
    expect(used.r.body.error.code).toBe("invitation_expired");
    const wrong = await accept(url, { token: "not-the-token", password: "my-very-own-password" });
    expect(wrong.r.status).toBe(404);
    expect(wrong.r.body.error.code).toBe("not_found");
    const unknown = await anon().post(`/invitations/${randomUUID()}/accept`, { token: "x", password: "y" });
    expect(unknown.status).toBe(404);
  });

  it("reissue kills the earlier link; withdrawal kills the link and removes the invitation", async () => {
    const email = fresh("reissued");
    const first = await invite(owner, email);
    const key = `reissue-${randomUUID()}`;
    const re = await owner.post(`/members/${first.memberId}/invitation`, undefined, { idempotencyKey: key });
    expect(re.status, re.text).toBe(201);
    expect(re.body.member).toMatchObject({ id: first.memberId, status: "invited" });
    const replay = await owner.post(`/members/${first.memberId}/invitation`, undefined, { idempotencyKey: key });
    expect(replay.status).toBe(409);
    expect(replay.text).not.toContain(linkParts(re.body.invitation.url).token);
    expect((await accept(first.url, { password: "a-password-of-mine" })).r.status).toBe(410);

    expect((await owner.delete(`/members/${first.memberId}`)).status).toBe(204);
    const withdrawn = await accept(re.body.invitation.url, { password: "a-password-of-mine" });
    expect(withdrawn.r.status).toBe(410);
    expect(withdrawn.r.body.error.code).toBe("invitation_expired");
    expect((await owner.get("/members?limit=100")).body.items.map((m: { id: string }) => m.id)).not.toContain(first.memberId);
    // an accepted member's invitation cannot be reissued
    const me = (await owner.get("/members")).body.items.find((m: { email: string }) => m.email === org.email);
    const active = await owner.post(`/members/${me.id}/invitation`);
    expect(active.status).toBe(409);
    expect(active.body.error.code).toBe("invalid_state");
  });

  it("an invitation past its 7 days is 410 invitation_expired (expires_at moved into the past)", async () => {
    const { url } = await invite(owner, fresh("late"));
    await db().invitation.updateMany({ where: { id: linkParts(url).id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const r = await accept(url, { password: "too-late-password" });
    expect(r.r.status).toBe(410);
    expect(r.r.body.error.code).toBe("invitation_expired");
  });

  it("an invited owner is no owner yet: the last active owner still cannot leave", async () => {
    const solo = await newOrg("Solo Org");
    const soloOwner = await signedIn(solo.email);
    await invite(soloOwner, fresh("future-owner"), "owner");
    const me = (await soloOwner.get("/members")).body.items.find((m: { email: string }) => m.email === solo.email);
    expect((await soloOwner.delete(`/members/${me.id}`)).body.error.code).toBe("invalid_state");
  });

  it("keeps tenants apart: another organization's member is 404 for reissue and reset", async () => {
    const other = await newOrg("Other Inviting Org");
    const theirs = await invite(await signedIn(other.email), fresh("theirs"));
    expect((await owner.post(`/members/${theirs.memberId}/invitation`)).status).toBe(404);
    expect((await owner.post(`/members/${theirs.memberId}/password-reset`)).status).toBe(404);
    expect((await owner.delete(`/members/${theirs.memberId}`)).status).toBe(404);
    // and an API key is refused like on every administration endpoint
    expect((await org.api.post(`/members/${theirs.memberId}/invitation`)).body.error.code).toBe("insufficient_scope");
  });
});

describe("one account in several organizations", () => {
  let a: OrgFixture;
  let b: OrgFixture;
  let ownerA: Api;
  let ownerB: Api;
  beforeAll(async () => {
    a = await newOrg("Org A");
    b = await newOrg("Org B");
    [ownerA, ownerB] = await Promise.all([signedIn(a.email), signedIn(b.email)]);
  });

  it("an existing account accepts with its current password or its session, never a new one", async () => {
    const email = fresh("shared");
    await accept((await invite(ownerA, email)).url, { password: "the-persons-password" });
    const toB = await invite(ownerB, email, "admin");
    const wrong = await accept(toB.url, { password: "a-password-chosen-by-b" });
    expect(wrong.r.status).toBe(401);
    expect(wrong.r.body.error.code).toBe("unauthenticated");
    const ok = await accept(toB.url, { password: "the-persons-password" });
    expect(ok.r.status, ok.r.text).toBe(200);
    expect(ok.r.body).toMatchObject({ organization: { id: b.organizationId }, role: "admin" });
    // the password is unchanged
    expect((await signIn(email, "the-persons-password")).status).toBe(200);

    // with the account's session and no password
    const c = await newOrg("Org C");
    const toC = await invite(await signedIn(c.email), email, "viewer");
    const session = await signedIn(email, "the-persons-password");
    const bySession = await accept(toC.url, {}, { cookie: session.cookie });
    expect(bySession.r.status, bySession.r.text).toBe(200);
    expect(bySession.r.body.organization.id).toBe(c.organizationId);
  });

  it("signs in where asked or where used last; lists the organizations; switches (the old session ends); 404 elsewhere", async () => {
    const email = fresh("traveller");
    const fromA = await accept((await invite(ownerA, email, "viewer")).url, { password: "traveller-password" });
    await accept((await invite(ownerB, email, "member")).url, { password: "traveller-password" });

    const inA = await signIn(email, "traveller-password", a.organizationId);
    expect(inA.body.organization.id).toBe(a.organizationId);
    expect(inA.body.role).toBe("viewer");
    // without organization_id: the one used last (A, just now)
    expect((await signIn(email, "traveller-password")).body.organization.id).toBe(a.organizationId);
    const inB = await signedIn(email, "traveller-password");
    const me = await inB.get("/session");
    expect(me.body.organizations.map((o: { id: string }) => o.id).sort()).toEqual([a.organizationId, b.organizationId].sort());

    const sw = await inB.post("/session/organization", { organization_id: b.organizationId }, { idempotencyKey: null });
    expect(sw.status, sw.text).toBe(200);
    expect(sw.body).toMatchObject({ organization: { id: b.organizationId }, role: "member" });
    const switched = new Api(baseUrl(), undefined, sw.headers.getSetCookie()[0].split(";")[0]);
    expect((await switched.get("/session")).body.organization.id).toBe(b.organizationId);
    expect((await inB.get("/session")).status).toBe(401); // the calling session ended
    // now B is the one used last
    expect((await signIn(email, "traveller-password")).body.organization.id).toBe(b.organizationId);

    const stranger = await newOrg("Stranger Org");
    const notMine = await switched.post("/session/organization", { organization_id: stranger.organizationId }, { idempotencyKey: null });
    expect(notMine.status).toBe(404);
    expect(notMine.body.error.code).toBe("not_found");
    expect((await switched.get("/session")).status).toBe(200); // a refused switch ends nothing
    const signInElsewhere = await signIn(email, "traveller-password", stranger.organizationId);
    expect(signInElsewhere.status).toBe(404);
    expect((await fromA.api.get("/session")).status).toBe(200);
  });

  it("issue 33's attack: organization B cannot plant a password that opens organization A", async () => {
    const cfo = fresh("cfo");
    // B invites the CFO and accepts its own link, choosing the password
    const planted = await accept((await invite(ownerB, cfo, "owner")).url, { password: "b-knows-this-password" });
    expect(planted.r.status).toBe(200);
    // A invites the same person; the link cannot be accepted with a password of A's (or the person's) choosing
    const toA = await invite(ownerA, cfo, "admin");
    expect((await accept(toA.url, { password: "the-real-cfo-password" })).r.status).toBe(401);
    // B leaves; B's password still opens nothing of A: the membership is only invited
    const bRow = (await ownerB.get("/members?limit=100")).body.items.find((m: { email: string }) => m.email === cfo);
    expect((await ownerB.call("PATCH", `/members/${bRow.id}`, { body: { role: "member" } })).status).toBe(200);
    expect((await ownerB.delete(`/members/${bRow.id}`)).status).toBe(204);
    const tryA = await signIn(cfo, "b-knows-this-password", a.organizationId);
    expect(tryA.status).toBe(404);
    expect((await signIn(cfo, "b-knows-this-password")).status).toBe(401);
    // A cannot hand out a reset link for an invited member, nor can B for an account it does not own alone
    expect((await ownerA.post(`/members/${toA.memberId}/password-reset`)).body.error.code).toBe("invalid_state");
  });

  it("the other way round: B's invitation of A's member cannot be accepted with B's password, and B cannot reset it", async () => {
    const person = fresh("a-member");
    await accept((await invite(ownerA, person)).url, { password: "persons-own-password" });
    const toB = await invite(ownerB, person, "owner");
    expect((await accept(toB.url, { password: "b-chosen-password-1" })).r.status).toBe(401);
    expect((await signIn(person, "b-chosen-password-1")).status).toBe(401);
    const aRow = (await ownerA.get("/members?limit=100")).body.items.find((m: { email: string }) => m.email === person);
    // A owns the account alone (B's membership is only an invitation, which counts): no reset link either
    const reset = await ownerA.post(`/members/${aRow.id}/password-reset`);
    expect(reset.status).toBe(409);
    expect(reset.body.error.code).toBe("invalid_state");
  });

  it("wrong passwords at acceptance count towards sign-in throttling (429 after LOGIN_MAX_FAILURES)", async () => {
    const email = fresh("guarded");
    await accept((await invite(ownerA, email)).url, { password: "guarded-password-1" });
    const { url } = await invite(ownerB, email);
    for (let i = 0; i < 10; i++) expect((await accept(url, { password: `wrong-guess-${i}` })).r.status).toBe(401);
    const limited = await accept(url, { password: "guarded-password-1" });
    expect(limited.r.status).toBe(429);
    expect(limited.r.body.error.code).toBe("rate_limited");
    expect((await signIn(email, "guarded-password-1")).status).toBe(429);
  });
});

describe("password resets", () => {
  let org: OrgFixture;
  let owner: Api;
  beforeAll(async () => {
    org = await newOrg("Resetting Org");
    owner = await signedIn(org.email);
  });

  async function member(role = "member"): Promise<{ email: string; memberId: string; api: Api }> {
    const email = fresh("resettable");
    const { memberId, url } = await invite(owner, email, role);
    const { api } = await accept(url, { password: "first-password-1" });
    return { email, memberId, api };
  }

  it("an account only this organization holds: a one-hour link; completing it ends every session", async () => {
    const m = await member();
    const other = await signedIn(m.email, "first-password-1");
    const key = `reset-${randomUUID()}`;
    const r = await owner.post(`/members/${m.memberId}/password-reset`, undefined, { idempotencyKey: key });
    expect(r.status, r.text).toBe(201);
    const { id, token, path } = linkParts(r.body.url);
    expect(path).toBe(`/password-reset/${id}`);
    const minutes = (Date.parse(r.body.expires_at) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(59);
    expect(minutes).toBeLessThanOrEqual(60);
    const replay = await owner.post(`/members/${m.memberId}/password-reset`, undefined, { idempotencyKey: key });
    expect(replay.status).toBe(409);
    expect(replay.text).not.toContain(token);

    expect((await anon().post(`/password-resets/${id}/complete`, { token, new_password: "short" })).status).toBe(422);
    expect((await anon().post(`/password-resets/${id}/complete`, { token: "wrong", new_password: "second-password-1" })).status).toBe(404);
    const done = await anon().post(`/password-resets/${id}/complete`, { token, new_password: "second-password-1" });
    expect(done.status, done.text).toBe(204);
    for (const api of [m.api, other]) expect((await api.get("/session")).status).toBe(401);
    expect((await signIn(m.email, "first-password-1")).status).toBe(401);
    expect((await signIn(m.email, "second-password-1")).status).toBe(200);
    const twice = await anon().post(`/password-resets/${id}/complete`, { token, new_password: "third-password-1" });
    expect(twice.status).toBe(410);
    expect(twice.body.error.code).toBe("invitation_expired");
  });

  it("an expired link is 410; a link made before the account joined another organization stops working", async () => {
    const m = await member();
    const late = await owner.post(`/members/${m.memberId}/password-reset`);
    await db().passwordReset.update({ where: { id: linkParts(late.body.url).id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const { id, token } = linkParts(late.body.url);
    expect((await anon().post(`/password-resets/${id}/complete`, { token, new_password: "never-set-password" })).status).toBe(410);

    const pending = await owner.post(`/members/${m.memberId}/password-reset`);
    const elsewhere = await newOrg("Elsewhere Org");
    await accept((await invite(await signedIn(elsewhere.email), m.email)).url, { password: "first-password-1" });
    const p = linkParts(pending.body.url);
    const r = await anon().post(`/password-resets/${p.id}/complete`, { token: p.token, new_password: "owner-knows-this-1" });
    expect(r.status).toBe(410);
    expect((await signIn(m.email, "first-password-1")).status).toBe(200);
    // and no new link: 409 invalid_state
    const refused = await owner.post(`/members/${m.memberId}/password-reset`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("invalid_state");
  });
});

describe("migration 0019: passwords chosen by an organization", () => {
  // The last statement of the migration, run again over rows of this test only.
  const migration = readFileSync("prisma/migrations/0019_identity/migration.sql", "utf8");
  const statement = migration.slice(migration.indexOf("WITH setter AS"));
  const scoped = statement.replace("FROM users u\n  WHERE u.password_hash <> ''", "FROM users u\n  WHERE u.password_hash <> '' AND u.id = ANY($1::uuid[])");

  it("keeps a one-organization account's password, clears planted and shared ones, keeps a person's own", async (ctx) => {
    // On Citus the migrations run before lib/db/migrate.ts distributes the tables: this statement never meets distributed ones.
    if ((await sql(db(), "SELECT 1 FROM pg_extension WHERE extname = 'citus'")).length) ctx.skip("runs on plain tables only (before distribution on Citus)");
    expect(scoped).not.toBe(statement);
    const [orgA, orgB] = [randomUUID(), randomUUID()];
    await sql(db(), "INSERT INTO organizations (id, name) VALUES ($1::uuid, 'Mig A'), ($2::uuid, 'Mig B')", [orgA, orgB]);
    const day = 86_400_000;
    const t0 = Date.now() - 10 * day;
    const users: Record<string, string> = {};
    async function user(name: string, createdAt: number, changedAt: number, memberships: [string, number][]) {
      const id = randomUUID();
      users[name] = id;
      await sql(db(), "INSERT INTO users (id, email, password_hash, created_at, password_changed_at) VALUES ($1::uuid, $2, 'argon-hash', $3, $4)", [
        id,
        fresh(name),
        new Date(createdAt),
        new Date(changedAt),
      ]);
      for (const [org, at] of memberships) {
        await sql(db(), "INSERT INTO memberships (id, organization_id, user_id, role, created_at) VALUES ($1::uuid, $2::uuid, $3::uuid, 'member', $4)", [
          randomUUID(),
          org,
          id,
          new Date(at),
        ]);
      }
      await sql(db(), "INSERT INTO issuer_sessions (id, organization_id, user_id, token_hash, expires_at) VALUES ($1::uuid, $2::uuid, $3::uuid, $4, $5)", [
        randomUUID(),
        memberships[0]?.[0] ?? orgA,
        id,
        `hash-${randomUUID()}`,
        new Date(Date.now() + day),
      ]);
    }
    await user("single", t0, t0, [[orgA, t0 + 20]]); // created by A with A's password, only in A
    await user("planted", t0, t0, [[orgA, t0 + 2 * day]]); // created by B (gone since), then added to A
    await user("shared", t0, t0, [
      [orgA, t0 + 10],
      [orgB, t0 + day],
    ]); // created by A with A's password, later added to B
    await user("own", t0, t0 + 3 * day, [
      [orgA, t0 + 10],
      [orgB, t0 + day],
    ]); // the person changed it later
    await user("readded", t0, t0 + 4 * day, [[orgB, t0 + 4 * day + 50]]); // B re-created credentials for a person with no organization left
    await sql(db(), scoped, [Object.values(users)]);
    const rows = await sql<{ id: string; password_hash: string; open: number }>(
      db(),
      `SELECT u.id::text, u.password_hash, (SELECT count(*)::int FROM issuer_sessions s WHERE s.user_id = u.id AND s.revoked_at IS NULL) AS open
       FROM users u WHERE u.id = ANY($1::uuid[])`,
      [Object.values(users)],
    );
    const by = Object.fromEntries(rows.map((r) => [r.id, r]));
    expect(by[users.single]).toMatchObject({ password_hash: "argon-hash", open: 1 });
    expect(by[users.planted]).toMatchObject({ password_hash: "", open: 0 });
    expect(by[users.shared]).toMatchObject({ password_hash: "", open: 0 });
    expect(by[users.own]).toMatchObject({ password_hash: "argon-hash", open: 1 });
    expect(by[users.readded]).toMatchObject({ password_hash: "argon-hash", open: 1 });
  });
});
