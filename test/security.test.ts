import http from "node:http";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { Api, baseUrl } from "./support/api";
import { apiKeyWith, newOrg, signedIn, TEST_PASSWORD, userWith, type OrgFixture } from "./support/fixtures";
import { createInvoice, legacyBody, registerObligation } from "./support/obligations";
import { RecipientClient, requestIdOf, tokenOf } from "./support/recipient";
import { startServer, type TestServer } from "./support/server";

// Issue 33, items 3-5 (docs/security.md): capabilities follow scopes, the payer's input is
// bounded, cross-origin mutations, cookies, HSTS, CSP, CSV formulas and webhook addresses.
// Three servers on the suite's database: the suite's own (defaults, plain http), `bounded`
// (small payer limits) and `secure` (PUBLIC_BASE_URL https, private webhook addresses refused).
let bounded: TestServer;
let secure: TestServer;
const SECURE_ORIGIN = "https://fos.example.test";

beforeAll(async () => {
  const databaseUrl = inject("databaseUrl");
  [bounded, secure] = await Promise.all([
    startServer({
      databaseUrl,
      label: "bounded",
      env: {
        RECIPIENT_MAX_MESSAGES: "4",
        RECIPIENT_MAX_DOCUMENTS: "2",
        RECIPIENT_MAX_STORED_BYTES: "3000",
        RECIPIENT_RATE_LIMIT_PER_MINUTE: "12",
        RECIPIENT_MESSAGE_WEBHOOKS_PER_HOUR: "2",
      },
    }),
    startServer({ databaseUrl, label: "secure", env: { PUBLIC_BASE_URL: SECURE_ORIGIN, WEBHOOK_ALLOW_PRIVATE_NETWORKS: "false" } }),
  ]);
}, 300_000);
afterAll(async () => {
  await Promise.all([bounded?.stop(), secure?.stop()]);
});

// A recipient session on `server` for a freshly registered obligation of `org`.
async function payerOf(org: OrgFixture, server = baseUrl()) {
  const api = new Api(server, org.apiKey);
  const reg = await registerObligation(api);
  const hosted = reg.payment_request.hosted_url as string;
  const rid = requestIdOf(hosted);
  const payer = new RecipientClient(server);
  const s = await payer.post(`/recipient/contexts/${rid}/session`, { token: tokenOf(hosted) });
  expect(s.status, s.text).toBe(200);
  let version = 2; // the open bumped it
  const act = (body: Record<string, unknown>) =>
    payer.post(`/recipient/contexts/${rid}/actions`, { ...body, expected_version: version }).then((r) => {
      if (r.status === 200) version = r.body.invoice.version;
      return r;
    });
  const upload = (bytes: number, name = "proof.txt") => {
    const form = new FormData();
    form.set("expected_version", String(version));
    form.set("file", new Blob([Buffer.alloc(bytes, "a")], { type: "text/plain" }), name);
    return payer.call("POST", `/recipient/contexts/${rid}/documents`, { form }).then((r) => {
      if (r.status === 201) version = r.body.invoice.version;
      return r;
    });
  };
  return { api, reg, rid, payer, act, upload, id: reg.obligation.id as string };
}

// A raw request (headers exactly as given, no client defaults).
async function raw(url: string, init: { method: string; headers: Record<string, string>; body?: string | FormData }) {
  const res = await fetch(url, { ...init, redirect: "manual" });
  const text = await res.text();
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, body, text };
}

describe("capabilities follow scopes: hosted_url needs write permission", () => {
  let org: OrgFixture;
  let id: string;
  beforeAll(async () => {
    org = await newOrg("Scopes Ltd");
    id = (await createInvoice(org.api)).invoice.id;
  });

  it('a read-only API key: 403 insufficient_scope on payment-request and the delivery draft, the detail with hosted_url ""', async () => {
    const ro = await apiKeyWith(org, ["obligations:read"]);
    const pr = await ro.get(`/obligations/${id}/payment-request`);
    expect(pr.status).toBe(403);
    expect(pr.body.error.code).toBe("insufficient_scope");
    const draft = await ro.get(`/invoices/${id}/delivery`);
    expect(draft.status).toBe(403);
    expect(draft.body.error.code).toBe("insufficient_scope");
    for (const path of [`/obligations/${id}`, `/invoices/${id}`]) {
      const d = await ro.get(path);
      expect(d.status, path).toBe(200);
      expect(d.body.payment_request.hosted_url, path).toBe("");
      expect(d.body.payment_request.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(d.text).not.toMatch(/\/r\/[0-9a-f-]{36}#/);
    }
  });

  it("a write key sees the link everywhere", async () => {
    const rw = await apiKeyWith(org, ["obligations:read", "obligations:write"]);
    const pr = await rw.get(`/obligations/${id}/payment-request`);
    expect(pr.status).toBe(200);
    expect(pr.body.hosted_url).toMatch(/\/r\/[0-9a-f-]{36}#[A-Za-z0-9_-]{22}_[A-Za-z0-9_-]{43}$/);
    expect((await rw.get(`/obligations/${id}`)).body.payment_request.hosted_url).toBe(pr.body.hosted_url);
    expect((await rw.get(`/invoices/${id}/delivery`)).body.hosted_url).toBe(pr.body.hosted_url);
  });

  it("a viewer: 403 insufficient_permission and no link in the detail; a member sees it", async () => {
    const viewer = await signedIn((await userWith(org, "viewer")).email);
    const pr = await viewer.get(`/obligations/${id}/payment-request`);
    expect(pr.status).toBe(403);
    expect(pr.body.error.code).toBe("insufficient_permission");
    expect((await viewer.get(`/invoices/${id}/delivery`)).body.error.code).toBe("insufficient_permission");
    expect((await viewer.get(`/obligations/${id}`)).body.payment_request.hosted_url).toBe("");
    const member = await signedIn((await userWith(org, "member")).email);
    expect((await member.get(`/obligations/${id}/payment-request`)).status).toBe(200);
    expect((await member.get(`/obligations/${id}`)).body.payment_request.hosted_url).toMatch(/#[A-Za-z0-9_-]{22}_[A-Za-z0-9_-]{43}$/);
  });

  it("the dashboard's obligation page shows a viewer no link", async () => {
    const viewer = await signedIn((await userWith(org, "viewer")).email);
    const page = await raw(`${baseUrl()}/dashboard/obligations/${id}`, { method: "GET", headers: { cookie: viewer.cookie! } });
    expect(page.status).toBe(200);
    expect(page.text).toContain("Only members who can change obligations can copy the link");
    expect(page.text).not.toMatch(/\/r\/[0-9a-f-]{36}#/);
  });
});

describe("the detail and the payer's invoice page through messages and the audit trail", () => {
  it("hold the latest 100 with totals; the paging endpoints return everything, newest first", async () => {
    const org = await newOrg("Chatty Ltd");
    const p = await payerOf(org);
    let version = (await org.api.get(`/obligations/${p.id}`)).body.version;
    for (let i = 0; i < 104; i++) {
      const r = await org.api.post(`/obligations/${p.id}/actions`, { action: "post_message", expected_version: version, message: `note ${i}` });
      expect(r.status, r.text).toBe(200);
      version = r.body.invoice.version;
    }
    const d = await org.api.get(`/obligations/${p.id}`);
    expect(d.body.messages).toHaveLength(100);
    expect(d.body.messages_total).toBe(104);
    expect(d.body.messages[0].body).toBe("note 4"); // the latest 100, oldest first
    expect(d.body.messages.at(-1).body).toBe("note 103");
    expect(d.body.audit_trail).toHaveLength(100);
    expect(d.body.audit_trail_total).toBe(106); // registered, opened, 104 messages
    expect(d.body.audit_trail.at(-1).event_type).toBe("obligation.message_posted");

    const page1 = await org.api.get(`/obligations/${p.id}/messages?limit=100`);
    const page2 = await org.api.get(`/obligations/${p.id}/messages?limit=100&offset=100`);
    expect(page1.body.items.map((m: any) => m.body)[0]).toBe("note 103");
    expect([...page1.body.items, ...page2.body.items].map((m: any) => m.body)).toEqual(Array.from({ length: 104 }, (_, i) => `note ${103 - i}`));
    const trail = await org.api.get(`/obligations/${p.id}/audit-trail?limit=10&offset=100`);
    expect(trail.body.items.map((e: any) => e.event_type)).toEqual([
      "obligation.message_posted",
      "obligation.message_posted",
      "obligation.message_posted",
      "obligation.message_posted",
      "obligation.link_opened",
      "obligation.registered",
    ]);

    const inv = await p.payer.get(`/recipient/contexts/${p.rid}/invoice`);
    expect(inv.body.messages).toHaveLength(100);
    expect(inv.body.messages_total).toBe(104);
    const older = await p.payer.get(`/recipient/contexts/${p.rid}/messages?offset=100`);
    expect(older.body.items.map((m: any) => m.body)).toEqual(["note 3", "note 2", "note 1", "note 0"]);
    const single = new RecipientClient(baseUrl());
    expect((await single.post("/recipient/session", { token: tokenOf(p.reg.payment_request.hosted_url) })).status).toBe(200);
    const newest = await single.get("/recipient/messages?limit=1");
    expect(newest.body).toMatchObject({ limit: 1, offset: 0 });
    expect(newest.body.items.map((m: any) => m.body)).toEqual(["note 103"]);

    // another organization's obligation is 404 on both paging endpoints
    const other = await newOrg("Other Ltd");
    expect((await other.api.get(`/obligations/${p.id}/messages`)).status).toBe(404);
    expect((await other.api.get(`/obligations/${p.id}/audit-trail`)).status).toBe(404);
  });
});

describe("bounded payer input (server with small limits)", () => {
  let org: OrgFixture;
  beforeAll(async () => {
    org = await newOrg("Bounded Ltd");
  });

  it("messages: the fifth is 409 invalid_state and nothing is stored", async () => {
    const p = await payerOf(org, bounded.baseUrl);
    for (let i = 0; i < 4; i++) expect((await p.act({ action: "post_message", message: `m${i}` })).status).toBe(200);
    const r = await p.act({ action: "post_message", message: "one too many" });
    expect(r.status).toBe(409);
    expect(r.body.error.code).toBe("invalid_state");
    expect(r.body.error.message).toMatch(/limit of 4 messages/);
    expect((await p.api.get(`/obligations/${p.id}`)).body.messages_total).toBe(4);
    // the issuer is not bounded by it
    const v = (await p.api.get(`/obligations/${p.id}`)).body.version;
    expect((await p.api.post(`/obligations/${p.id}/actions`, { action: "post_message", expected_version: v, message: "issuer" })).status).toBe(200);
  });

  it("documents: the third is 409 invalid_state; bytes beyond the total are 413 payload_too_large", async () => {
    const p = await payerOf(org, bounded.baseUrl);
    expect((await p.upload(1000)).status).toBe(201);
    const big = await p.upload(2500); // 1000 + 2500 > 3000
    expect(big.status).toBe(413);
    expect(big.body.error.code).toBe("payload_too_large");
    expect((await p.upload(1000)).status).toBe(201);
    const third = await p.upload(10);
    expect(third.status).toBe(409);
    expect(third.body.error.code).toBe("invalid_state");
    const q = await payerOf(org, bounded.baseUrl);
    expect((await q.act({ action: "post_message", message: "x".repeat(2900) })).status).toBe(200);
    const over = await q.act({ action: "post_message", message: "y".repeat(200) });
    expect(over.status).toBe(413);
    expect(over.body.error.code).toBe("payload_too_large");
  });

  it("payer messages beyond the hourly bound send no webhook, and are still in the audit trail", async () => {
    const sink = http.createServer((_req, res) => res.writeHead(204).end());
    await new Promise<void>((r) => sink.listen(0, "127.0.0.1", () => r()));
    try {
      const port = (sink.address() as { port: number }).port;
      const whOrg = await newOrg("Webhook Bounded Ltd");
      const api = new Api(bounded.baseUrl, whOrg.apiKey);
      expect((await api.post("/webhook-endpoints", { url: `http://127.0.0.1:${port}/hook`, secret: "s".repeat(40) })).status).toBe(201);
      const p = await payerOf(whOrg, bounded.baseUrl);
      for (let i = 0; i < 4; i++) expect((await p.act({ action: "post_message", message: `w${i}` })).status).toBe(200);
      const deliveries = (await api.get("/webhook-deliveries")).body.items as { event_type: string }[];
      expect(deliveries.filter((d) => d.event_type === "obligation.message_posted")).toHaveLength(2);
      expect(deliveries.filter((d) => d.event_type === "obligation.link_opened")).toHaveLength(1);
      const trail = (await api.get(`/obligations/${p.id}`)).body.audit_trail as { event_type: string }[];
      expect(trail.filter((e) => e.event_type === "obligation.message_posted")).toHaveLength(4);
    } finally {
      sink.close();
    }
  });

  it("a link's state-changing calls are rate limited (429 with Retry-After), its reads are not", async () => {
    const p = await payerOf(org, bounded.baseUrl);
    // 25 calls span at most two fixed one-minute windows, so one window holds more than 12
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 25; i++) {
      const r = await p.payer.post(`/recipient/contexts/${p.rid}/actions`, { action: "share_dates", expected_version: 1, expected_payment_date: "2030-01-01" });
      statuses.push(r.status);
      if (r.status === 429) {
        retryAfter = r.headers.get("retry-after");
        expect(r.body.error.code).toBe("rate_limited");
      }
    }
    expect(statuses).toContain(429);
    expect(statuses.filter((s) => s !== 429).every((s) => s === 409)).toBe(true); // stale version: refused, but counted
    expect(Number(retryAfter)).toBeGreaterThan(0);
    expect((await p.payer.get(`/recipient/contexts/${p.rid}/invoice`)).status).toBe(200);
    // session exchanges of the link are counted too
    const hosted = (await p.api.get(`/obligations/${p.id}/payment-request`)).body.hosted_url as string;
    const exchanges: number[] = [];
    for (let i = 0; i < 25; i++)
      exchanges.push((await new RecipientClient(bounded.baseUrl).post(`/recipient/contexts/${p.rid}/session`, { token: tokenOf(hosted) })).status);
    expect(exchanges).toContain(429);
  });
});

describe("cross-origin mutations without an API key (CSRF, login CSRF)", () => {
  let org: OrgFixture;
  beforeAll(async () => {
    org = await newOrg("Origin Ltd");
  });
  const signInBody = () => JSON.stringify({ email: org.email, password: TEST_PASSWORD });

  it("text/plain POST /session from another origin is 415 and sets no cookie", async () => {
    const cases: Record<string, string>[] = [
      { "content-type": "text/plain", origin: "https://evil.example" },
      { "content-type": "text/plain", origin: "null" },
      { "content-type": "text/plain", "sec-fetch-site": "cross-site" },
      { "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "same-site", origin: "http://sub.127.0.0.1.nip.io" },
    ];
    for (const headers of cases) {
      const r = await raw(`${baseUrl()}/api/v1/session`, { method: "POST", headers, body: signInBody() });
      expect(r.status, JSON.stringify(headers)).toBe(415);
      expect(r.body.error.code).toBe("unsupported_media_type");
      expect(r.headers.getSetCookie()).toEqual([]);
    }
  });

  it("JSON from anywhere, and any type from our own origin or a client that sends no Origin, still sign in", async () => {
    const own = new URL(baseUrl()).origin;
    const cases: Record<string, string>[] = [
      { "content-type": "application/json", origin: "https://evil.example" }, // a browser preflights this, and we grant no CORS
      { "content-type": "text/plain", origin: own, "sec-fetch-site": "same-origin" },
      { "content-type": "text/plain" },
    ];
    for (const headers of cases) {
      const r = await raw(`${baseUrl()}/api/v1/session`, { method: "POST", headers, body: signInBody() });
      expect(r.status, JSON.stringify(headers)).toBe(200);
    }
  });

  it("a cookie-authenticated upload from another origin is refused; the same with an API key is not", async () => {
    const reg = await registerObligation(org.api);
    const session = await signedIn(org.email);
    const form = () => {
      const f = new FormData();
      f.set("expected_version", "1");
      f.set("file", new Blob(["proof"], { type: "text/plain" }), "p.txt");
      return f;
    };
    const url = `${baseUrl()}/api/v1/obligations/${reg.obligation.id}/documents`;
    const cross = await raw(url, {
      method: "POST",
      headers: { cookie: session.cookie!, origin: "https://evil.example", "idempotency-key": "csrf-upload-1" },
      body: form(),
    });
    expect(cross.status).toBe(415);
    const keyed = await raw(url, {
      method: "POST",
      headers: { authorization: `Bearer ${org.apiKey}`, origin: "https://evil.example", "idempotency-key": "csrf-upload-2" },
      body: form(),
    });
    expect(keyed.status).toBe(201);
  });
});

describe("cookies, HSTS and CSP", () => {
  it("over plain http: fos_session without Secure, no HSTS", async () => {
    const org = await newOrg("Plain Ltd");
    const r = await raw(`${baseUrl()}/api/v1/session`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: org.email, password: TEST_PASSWORD }),
    });
    expect(r.headers.getSetCookie()).toHaveLength(1);
    expect(r.headers.getSetCookie()[0]).toMatch(/^fos_session=[^;]+; Path=\/; HttpOnly; SameSite=Strict; Max-Age=\d+$/);
    expect(r.headers.get("strict-transport-security")).toBeNull();
  });

  it("PUBLIC_BASE_URL https: __Host- session cookie, Secure without X-Forwarded-Proto, HSTS; the old plain cookie ends cleanly", async () => {
    const org = await newOrg("Secure Ltd");
    const body = JSON.stringify({ email: org.email, password: TEST_PASSWORD });
    const old = await signedIn(org.email); // a session of the plain-http server: its cookie is fos_session
    const r = await raw(`${secure.baseUrl}/api/v1/session`, { method: "POST", headers: { "content-type": "application/json", cookie: old.cookie! }, body });
    expect(r.status).toBe(200);
    const [set, expire] = r.headers.getSetCookie();
    expect(set).toMatch(/^__Host-fos_session=[^;]+; Path=\/; HttpOnly; SameSite=Strict; Max-Age=\d+; Secure$/);
    expect(expire).toMatch(/^fos_session=; Path=\/; HttpOnly; SameSite=Strict; Max-Age=0; Secure$/);
    expect(r.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
    const cookie = set.split(";")[0];
    expect((await raw(`${secure.baseUrl}/api/v1/session`, { method: "GET", headers: { cookie } })).status).toBe(200);
    // a plain fos_session is no credential on an https deployment (it signs in again)
    expect((await raw(`${secure.baseUrl}/api/v1/session`, { method: "GET", headers: { cookie: old.cookie! } })).status).toBe(401);
    const login = await raw(`${secure.baseUrl}/login`, { method: "GET", headers: {} });
    expect(login.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
    expect(login.headers.get("content-security-policy")).toContain("upgrade-insecure-requests");
    // sign-out clears the __Host- cookie
    const out = await raw(`${secure.baseUrl}/api/v1/session`, { method: "DELETE", headers: { cookie } });
    expect(out.status).toBe(204);
    expect(out.headers.getSetCookie()[0]).toMatch(/^__Host-fos_session=; Path=\/; .*Max-Age=0; Secure$/);
    // our own https origin may post any type; another may not
    const own = await raw(`${secure.baseUrl}/api/v1/session`, { method: "POST", headers: { "content-type": "text/plain", origin: SECURE_ORIGIN }, body });
    expect(own.status).toBe(200);
    const evil = await raw(`${secure.baseUrl}/api/v1/session`, {
      method: "POST",
      headers: { "content-type": "text/plain", origin: "https://fos.example.test.evil.com" },
      body,
    });
    expect(evil.status).toBe(415);
  });

  it("PUBLIC_BASE_URL https: the recipient cookie is __Secure- prefixed and Secure", async () => {
    const org = await newOrg("Secure Payer Ltd");
    const p = await payerOf(org, secure.baseUrl);
    const cookie = p.payer.jar.cookies.find((c) => c.name.endsWith(p.rid))!;
    expect(cookie.name).toBe(`__Secure-fos_recipient_${p.rid}`);
    expect(cookie.attributes).toContain("Secure");
    expect((await p.payer.get(`/recipient/contexts/${p.rid}/invoice`)).status).toBe(200);
  });

  it("the dashboard and the sign-in page carry a nonce CSP that their scripts follow", async () => {
    const org = await newOrg("CSP Ltd");
    const session = await signedIn(org.email);
    const nonces = new Set<string>();
    for (const [path, cookie] of [
      ["/login", ""],
      ["/dashboard", session.cookie!],
      ["/dashboard/obligations", session.cookie!],
    ] as const) {
      const r = await raw(`${baseUrl()}${path}`, { method: "GET", headers: cookie ? { cookie } : {} });
      expect(r.status, path).toBe(200);
      const csp = r.headers.get("content-security-policy") ?? "";
      const nonce = /script-src 'self' 'nonce-([A-Za-z0-9+/=]{20,})' 'strict-dynamic'/.exec(csp)?.[1];
      expect(nonce, `${path}: ${csp}`).toBeDefined();
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).not.toMatch(/script-src[^;]*unsafe/);
      nonces.add(nonce!);
      const scripts = [...r.text.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
      expect(scripts.length, path).toBeGreaterThan(0);
      for (const s of scripts) expect(s, path).toContain(`nonce="${nonce}"`);
    }
    expect(nonces.size).toBe(3); // fresh per response
  });
});

describe("CSV export cells", () => {
  it("neutralises formulas after whitespace, line breaks and any delimiter", async () => {
    const org = await newOrg("Export Ltd");
    for (const name of ["Acme;=1+1", ' =HYPERLINK("http://evil.example")', "\n=2+2", "Plain GmbH"]) {
      await registerObligation(org.api, legacyBody({ debtor: { name, email: "ap@example.test" } }));
    }
    const session = await signedIn(org.email);
    const r = await raw(`${baseUrl()}/dashboard/obligations/export`, { method: "GET", headers: { cookie: session.cookie! } });
    expect(r.status).toBe(200);
    expect(r.text).toContain('"Acme;\'=1+1"');
    expect(r.text).toContain('" \'=HYPERLINK(""http://evil.example"")"');
    expect(r.text).toContain("\"'\n'=2+2\"");
    expect(r.text).toContain(",Plain GmbH,");
  });
});

describe("webhook destinations: every non-global IPv6 form is refused", () => {
  it("is 422 validation_failed naming body.url", async () => {
    const org = await newOrg("SSRF Ltd");
    const api = new Api(secure.baseUrl, org.apiKey);
    for (const host of [
      "[::127.0.0.1]",
      "[::ffff:127.0.0.1]",
      "[::ffff:8.8.8.8]",
      "[64:ff9b::7f00:1]",
      "[2002:7f00:1::1]",
      "[2001:0:4136:e378:8000:63bf:3fff:fdd2]",
      "[fd00::1]",
      "[fe80::1]",
      "[fec0::1]",
      "[ff02::1]",
      "[::]",
      "[::1]",
    ]) {
      const r = await api.post("/webhook-endpoints", { url: `http://${host}/hook`, secret: "s".repeat(40) });
      expect(r.status, host).toBe(422);
      expect(r.body.error.message, host).toMatch(/^body\.url: /);
    }
  });
});
