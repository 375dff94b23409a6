import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { Api, baseUrl, cookieFrom } from "./support/api";
import { newOrg, signedIn, type OrgFixture } from "./support/fixtures";
import { accept, invite, linkParts } from "./support/identity";
import { legacyBody, registerObligation } from "./support/obligations";
import { RecipientClient, tokenOf } from "./support/recipient";

// Credentials that name their organization (lib/auth/token-routing.ts, docs/scaling.md
// "Finding the organization first"): `<prefix><route>_<secret>`. New tokens carry the route and
// work; the old form (`<prefix><secret>`, what was handed out before) still works; a route
// naming another organization, or a tampered route, is refused as an unknown token is.

const routeOf = (organizationId: string) => Buffer.from(organizationId.replace(/-/g, ""), "hex").toString("base64url");
const ROUTED = /^[A-Za-z0-9_-]{22}_[A-Za-z0-9_-]{43}$/;

// The forms of one routed token: the old form (route dropped), another organization's route
// over the same secret, and routes tampered two ways (spare bits set: not an id's encoding;
// one character changed: an organization that does not exist).
function forms(token: string, prefix: string, otherOrganizationId: string) {
  const body = token.slice(prefix.length);
  expect(body).toMatch(ROUTED);
  const route = body.slice(0, 22);
  const secret = body.slice(23);
  const last = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  const spare = last[last.indexOf(route[21]) + 1];
  const flipped = route[5] === "A" ? "B" : "A";
  return {
    route,
    old: `${prefix}${secret}`,
    otherOrg: `${prefix}${routeOf(otherOrganizationId)}_${secret}`,
    spareBits: `${prefix}${route.slice(0, 21)}${spare}_${secret}`,
    changed: `${prefix}${route.slice(0, 5)}${flipped}${route.slice(6)}_${secret}`,
  };
}

const anon = () => new Api(baseUrl());

describe("credentials carry their organization", () => {
  let a: OrgFixture;
  let b: OrgFixture;
  beforeAll(async () => {
    a = await newOrg("Routing Org A");
    b = await newOrg("Routing Org B");
  });

  it("API keys: fos_<route>_<secret>; the old form works, another organization's route or a tampered one is 401", async () => {
    expect(a.apiKey.startsWith(`fos_${routeOf(a.organizationId)}_`)).toBe(true);
    const f = forms(a.apiKey, "fos_", b.organizationId);
    const call = (key: string) => anon().get("/obligations?limit=1", { auth: key });
    expect((await call(a.apiKey)).status).toBe(200);
    expect((await call(f.old)).status).toBe(200);
    for (const bad of [f.otherOrg, f.spareBits, f.changed]) {
      const r = await call(bad);
      expect(r.status).toBe(401);
      expect(r.body.error.code).toBe("unauthenticated");
    }
    // The idempotent path (key row and Idempotency-Key claim in one write) decides alike.
    expect((await anon().post("/obligations", legacyBody(), { auth: f.old })).status).toBe(201);
    for (const bad of [f.otherOrg, f.spareBits, f.changed]) expect((await anon().post("/obligations", legacyBody(), { auth: bad })).status).toBe(401);
  });

  it("the API key list shows the key's first characters, route and six of the secret", async () => {
    const owner = await signedIn(a.email);
    const created = await owner.post("/api-keys", { name: `k-${randomUUID().slice(0, 6)}`, scopes: ["obligations:read"] });
    expect(created.status, created.text).toBe(201);
    const key: string = created.body.key;
    expect(key.startsWith(created.body.prefix)).toBe(true);
    expect((await anon().get("/obligations?limit=1", { auth: key })).status).toBe(200);
    const listed = (await owner.get("/api-keys?limit=100")).body.items.find((k: { id: string }) => k.id === created.body.id);
    expect(listed.prefix).toBe(created.body.prefix);
    expect(listed.prefix).toHaveLength(4 + 22 + 1 + 6);
  });

  it("issuer sessions: the cookie names its organization; old form works; another route or a tampered one is 401", async () => {
    const s = await signedIn(a.email);
    const [name, value] = (s.cookie ?? "").split("=");
    const f = forms(value, "", b.organizationId);
    expect(f.route).toBe(routeOf(a.organizationId));
    const with_ = (v: string) => anon().get("/session", { cookie: `${name}=${v}` });
    expect((await with_(value)).status).toBe(200);
    expect((await with_(f.old)).body.organization.id).toBe(a.organizationId);
    for (const bad of [f.otherOrg, f.spareBits, f.changed]) expect((await with_(bad)).status).toBe(401);
  });

  it("hosted payment links and recipient sessions: routed, old links still open, foreign or tampered routes 401", async () => {
    const r = await registerObligation(a.api);
    const token = tokenOf(r.payment_request.hosted_url);
    const f = forms(token, "", b.organizationId);
    expect(f.route).toBe(routeOf(a.organizationId));
    const exchange = (t: string) => new RecipientClient(baseUrl()).post("/recipient/session", { token: t });
    for (const bad of [f.otherOrg, f.spareBits, f.changed]) {
      const x = await exchange(bad);
      expect(x.status).toBe(401);
      expect(x.body.error.code).toBe("unauthenticated");
    }
    const old = await exchange(f.old); // a link handed out before routing
    expect(old.status, old.text).toBe(200);
    const fresh = await exchange(token);
    expect(fresh.status, fresh.text).toBe(200);
    const value = cookieFrom(fresh).split("=")[1];
    const c = forms(value, "", b.organizationId);
    const invoice = (v: string) => new RecipientClient(baseUrl()).get("/recipient/invoice", { cookie: `fos_recipient=${v}` });
    expect((await invoice(value)).status).toBe(200);
    expect((await invoice(c.old)).status).toBe(200);
    for (const bad of [c.otherOrg, c.spareBits, c.changed]) expect((await invoice(bad)).status).toBe(401);
  });

  it("account links and their sessions: routed, old form works, foreign or tampered routes 401", async () => {
    const email = `payer-${randomUUID().slice(0, 8)}@example.test`;
    await registerObligation(a.api, { ...legacyBody(), debtor: { name: "Routed Payer", email } });
    const cp = (await a.api.get("/counterparties?limit=100")).body.items.find((x: { email: string | null }) => x.email === email);
    const link = await a.api.post(`/counterparties/${cp.id}/account-link`, {});
    expect(link.status, link.text).toBe(201);
    const account = new URL(link.body.hosted_url).pathname.split("/").pop();
    const f = forms(tokenOf(link.body.hosted_url), "", b.organizationId);
    const exchange = (t: string) => new RecipientClient(baseUrl()).post(`/recipient/accounts/${account}/session`, { token: t });
    for (const bad of [f.otherOrg, f.spareBits, f.changed]) expect((await exchange(bad)).status).toBe(401);
    expect((await exchange(f.old)).status).toBe(200);
    const s = await exchange(tokenOf(link.body.hosted_url));
    expect(s.status, s.text).toBe(200);
    const value = cookieFrom(s).split("=")[1];
    const c = forms(value, "", b.organizationId);
    const read = (v: string) => new RecipientClient(baseUrl()).get(`/recipient/accounts/${account}`, { cookie: `fos_account_${account}=${v}` });
    expect((await read(value)).status).toBe(200);
    expect((await read(c.old)).status).toBe(200);
    for (const bad of [c.otherOrg, c.spareBits, c.changed]) expect((await read(bad)).status).toBe(401);
  });

  it("invitation links: routed; foreign or tampered routes 404; the old form is accepted", async () => {
    const owner = await signedIn(a.email);
    const { url } = await invite(owner, `routed-${randomUUID().slice(0, 8)}@example.test`);
    const { id, token } = linkParts(url);
    const f = forms(token, "", b.organizationId);
    expect(f.route).toBe(routeOf(a.organizationId));
    for (const bad of [f.otherOrg, f.spareBits, f.changed]) {
      const r = await anon().post(`/invitations/${id}/accept`, { token: bad, password: "routed-password-1" });
      expect(r.status).toBe(404);
      expect(r.body.error.code).toBe("not_found");
    }
    const ok = await accept(url.replace(token, f.old), { password: "routed-password-1" });
    expect(ok.r.status, ok.r.text).toBe(200);
    expect(ok.r.body.organization.id).toBe(a.organizationId);
  });

  it("password-reset links: routed; foreign or tampered routes 404; the old form completes", async () => {
    const owner = await signedIn(a.email);
    const email = `resettable-${randomUUID().slice(0, 8)}@example.test`;
    const { memberId, url } = await invite(owner, email);
    await accept(url, { password: "first-password-1" });
    const r = await owner.post(`/members/${memberId}/password-reset`);
    expect(r.status, r.text).toBe(201);
    const { id, token } = linkParts(r.body.url);
    const f = forms(token, "", b.organizationId);
    for (const bad of [f.otherOrg, f.spareBits, f.changed]) {
      expect((await anon().post(`/password-resets/${id}/complete`, { token: bad, new_password: "second-password-1" })).status).toBe(404);
    }
    expect((await anon().post(`/password-resets/${id}/complete`, { token: f.old, new_password: "second-password-1" })).status).toBe(204);
  });
});
