import { createHash, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it, inject } from "vitest";
import { db } from "@/lib/db/client";
import { ZInvoiceRecord, ZMutationResult } from "@/lib/schemas/obligations";
import { ZRecipientInvoice, ZRecipientSession } from "@/lib/schemas/recipient";
import { baseUrl } from "./support/api";
import { newOrg, type OrgFixture } from "./support/fixtures";
import { dayOffset, legacyBody, registerObligation } from "./support/obligations";
import { RecipientClient, requestIdOf, tokenOf } from "./support/recipient";

// The recipient API in both families: session exchange, invoice detail, actions,
// documents; the X-Service-Request rule, revocation, expiry, reissue, wrong tokens and
// cross-link isolation. Everything over real HTTP; the database is touched only to make
// a request expire (and to read first_opened_at).

const sha256 = (b: string | Buffer) => createHash("sha256").update(b).digest("hex");
const PDF = Buffer.from("%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n");

type Link = { obligationId: string; requestId: string; token: string; hostedUrl: string };

// Every token, hosted URL and session cookie value seen by this file (checked against the server log).
const secrets = new Set<string>();

async function newLink(org: OrgFixture, overrides: Record<string, unknown> = {}): Promise<Link> {
  const r = await registerObligation(org.api, legacyBody(overrides));
  const hostedUrl = r.payment_request.hosted_url as string;
  const link = { obligationId: r.invoice.id, requestId: requestIdOf(hostedUrl), token: tokenOf(hostedUrl), hostedUrl };
  secrets.add(link.token).add(hostedUrl);
  return link;
}

const ctx = (l: Link) => `/recipient/contexts/${l.requestId}`;

async function open(c: RecipientClient, l: Link, family: "context" | "single" = "context") {
  const r = await c.post(family === "context" ? `${ctx(l)}/session` : "/recipient/session", { token: l.token });
  expect(r.status, r.text).toBe(200);
  for (const sc of r.headers.getSetCookie()) secrets.add(sc.split(";")[0].split("=")[1]);
  return r;
}

function form(fields: Record<string, string>, file?: { name: string; bytes: Buffer }) {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  if (file) f.append("file", new Blob([new Uint8Array(file.bytes)], { type: "application/octet-stream" }), file.name);
  return f;
}

describe("recipient API", () => {
  let org: OrgFixture;
  let other: OrgFixture;
  beforeAll(async () => {
    org = await newOrg("Issuer & Sons");
    other = await newOrg("Other Issuer");
  });

  const issuerDetail = async (l: Link, o: OrgFixture = org) => (await o.api.get(`/obligations/${l.obligationId}`)).body;

  describe("session exchange", () => {
    it("request-scoped family: 200 {invoice_id, request_id}, a scoped HttpOnly SameSite=Strict cookie, link_opened recorded, CAPTURED -> PAYMENT_REQUESTED", async () => {
      const l = await newLink(org);
      const c = new RecipientClient(baseUrl());
      const r = await open(c, l);
      expect(ZRecipientSession.parse(r.body)).toEqual({ invoice_id: l.obligationId, request_id: l.requestId });
      const [cookie] = r.headers.getSetCookie();
      const value = cookie.split(";")[0].split("=")[1];
      expect(cookie).toMatch(new RegExp(`^fos_recipient_${l.requestId}=[A-Za-z0-9_-]{22}_[A-Za-z0-9_-]{43}; `));
      expect(cookie).toContain(`Path=/api/v1/recipient/contexts/${l.requestId}`);
      expect(cookie).toContain("HttpOnly");
      expect(cookie).toContain("SameSite=Strict");
      expect(cookie).toContain("Max-Age=43200");
      expect(cookie).not.toContain("Secure"); // plain http here
      expect(r.text).not.toContain(value);
      expect(value).not.toBe(l.token);

      const d = await issuerDetail(l);
      expect(d).toMatchObject({ status: "PAYMENT_REQUESTED", version: 2 });
      expect(d.audit_trail.map((e: any) => e.event_type)).toEqual(["obligation.registered", "obligation.link_opened"]);
      expect(d.audit_trail[1]).toMatchObject({
        actor: { type: "recipient", id: l.requestId, label: "Recipient" },
        detail: { payment_request_id: l.requestId, first_open: true },
      });
      const pr = await db().paymentRequest.findFirstOrThrow({ where: { id: l.requestId } });
      expect(pr.firstOpenedAt).toBeInstanceOf(Date);
      // the session is stored by hash only
      const sessions = await db().recipientSession.findMany({ where: { paymentRequestId: l.requestId } });
      expect(sessions).toHaveLength(1);
      // (the secret after the organization's route: lib/auth/token-routing.ts)
      expect(sessions[0].tokenHash).toBe(sha256(value.slice(23)));
      expect(JSON.stringify(sessions)).not.toContain(value);

      const inv = await c.get(`${ctx(l)}/invoice`);
      expect(inv.status, inv.text).toBe(200);
      expect(inv.body.id).toBe(l.obligationId);
    });

    it("single-link family: cookie fos_recipient on Path=/api/v1/recipient; over https __Secure-fos_recipient, Secure", async () => {
      const l = await newLink(org);
      const c = new RecipientClient(baseUrl());
      const r = await c.post("/recipient/session", { token: l.token }, { headers: { "x-forwarded-proto": "https" } });
      expect(r.status, r.text).toBe(200);
      expect(r.body).toEqual({ invoice_id: l.obligationId, request_id: l.requestId });
      const [cookie] = r.headers.getSetCookie();
      secrets.add(cookie.split(";")[0].split("=")[1]);
      expect(cookie).toMatch(
        /^__Secure-fos_recipient=[A-Za-z0-9_-]{22}_[A-Za-z0-9_-]{43}; Path=\/api\/v1\/recipient; HttpOnly; SameSite=Strict; Max-Age=43200; Secure$/,
      );
      const inv = await c.get("/recipient/invoice");
      expect(inv.status, inv.text).toBe(200);
      expect(inv.body).toMatchObject({ id: l.obligationId, request_id: l.requestId });
    });

    it("a second open records another link_opened without changing the status again; first_opened_at stays", async () => {
      const l = await newLink(org);
      await open(new RecipientClient(baseUrl()), l);
      const first = (await db().paymentRequest.findFirstOrThrow({ where: { id: l.requestId } })).firstOpenedAt;
      await open(new RecipientClient(baseUrl()), l, "single");
      const d = await issuerDetail(l);
      expect(d).toMatchObject({ status: "PAYMENT_REQUESTED", version: 3 });
      expect(d.audit_trail.map((e: any) => e.event_type)).toEqual(["obligation.registered", "obligation.link_opened", "obligation.link_opened"]);
      expect(d.audit_trail[2].detail.first_open).toBe(false);
      expect((await db().paymentRequest.findFirstOrThrow({ where: { id: l.requestId } })).firstOpenedAt).toEqual(first);
    });

    it("opening after mark_sent keeps PAYMENT_REQUESTED", async () => {
      const l = await newLink(org);
      expect((await org.api.post(`/obligations/${l.obligationId}/actions`, { action: "mark_sent", expected_version: 1 })).status).toBe(200);
      await open(new RecipientClient(baseUrl()), l);
      expect(await issuerDetail(l)).toMatchObject({ status: "PAYMENT_REQUESTED", version: 3 });
    });

    it("a replay gives the stored body with Idempotent-Replayed and a fresh working cookie, recording no second open", async () => {
      const l = await newLink(org);
      const key = `replay-${randomUUID()}`;
      const a = new RecipientClient(baseUrl());
      const first = await a.post(`${ctx(l)}/session`, { token: l.token }, { idempotencyKey: key });
      expect(first.status).toBe(200);
      const b = new RecipientClient(baseUrl());
      const again = await b.post(`${ctx(l)}/session`, { token: l.token }, { idempotencyKey: key });
      expect(again.status).toBe(200);
      expect(again.headers.get("idempotent-replayed")).toBe("true");
      expect(again.text).toBe(first.text);
      const [c1] = first.headers.getSetCookie();
      const [c2] = again.headers.getSetCookie();
      expect(c2).toBeDefined();
      expect(c2.split(";")[0]).not.toBe(c1.split(";")[0]);
      secrets.add(c2.split(";")[0].split("=")[1]).add(c1.split(";")[0].split("=")[1]);
      expect((await b.get(`${ctx(l)}/invoice`)).status).toBe(200);
      expect((await a.get(`${ctx(l)}/invoice`)).status).toBe(200);
      const d = await issuerDetail(l);
      expect(d.audit_trail.filter((e: any) => e.event_type === "obligation.link_opened")).toHaveLength(1);
      // the stored response holds neither the token nor the cookie
      const rec = await db().idempotencyRecord.findMany({ where: { key } });
      expect(rec).toHaveLength(1);
      expect(JSON.stringify(rec)).not.toContain(l.token);
      expect(JSON.stringify(rec)).not.toContain(c1.split(";")[0].split("=")[1]);
      // the same key with another body is refused
      const other = await b.post(`${ctx(l)}/session`, { token: `${l.token}x` }, { idempotencyKey: key });
      expect(other.status).not.toBe(200);
    });

    it("concurrent opens serialize: 12 at once all succeed with 12 link_opened events; 12 with one key have one effect", async () => {
      const l = await newLink(org);
      const results = await Promise.all(Array.from({ length: 12 }, () => new RecipientClient(baseUrl()).post(`${ctx(l)}/session`, { token: l.token })));
      expect(results.map((r) => r.status)).toEqual(Array(12).fill(200));
      for (const r of results) secrets.add(r.headers.getSetCookie()[0].split(";")[0].split("=")[1]);
      const d = await issuerDetail(l);
      expect(d.version).toBe(13);
      expect(d.audit_trail.filter((e: any) => e.event_type === "obligation.link_opened")).toHaveLength(12);
      expect(d.audit_trail.filter((e: any) => e.detail.first_open === true)).toHaveLength(1);

      const m = await newLink(org);
      const key = `same-${randomUUID()}`;
      const same = await Promise.all(
        Array.from({ length: 12 }, () => new RecipientClient(baseUrl()).post(`${ctx(m)}/session`, { token: m.token }, { idempotencyKey: key })),
      );
      for (const r of same) {
        expect([200, 409], r.text).toContain(r.status);
        if (r.status === 409) expect(r.body.error.code).toBe("idempotency_request_in_progress");
        else for (const sc of r.headers.getSetCookie()) secrets.add(sc.split(";")[0].split("=")[1]);
      }
      expect(same.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(1);
      expect((await issuerDetail(m)).audit_trail.filter((e: any) => e.event_type === "obligation.link_opened")).toHaveLength(1);
    });

    it("requires X-Service-Request: 1 (403 request_marker_required) in both families", async () => {
      const l = await newLink(org);
      const c = new RecipientClient(baseUrl());
      for (const path of [`${ctx(l)}/session`, "/recipient/session"]) {
        for (const headers of [{}, { "x-service-request": "0" }, { "x-service-request": "true" }] as Record<string, string>[]) {
          const r = await c.post(path, { token: l.token }, { marker: false, headers });
          expect(r.status, `${path} ${JSON.stringify(headers)}`).toBe(403);
          expect(r.body).toEqual({ error: { code: "request_marker_required", message: expect.any(String) } });
          expect(r.headers.getSetCookie()).toEqual([]);
        }
      }
      expect((await issuerDetail(l)).version).toBe(1);
    });

    it("requires an Idempotency-Key (400) and a strict body (422)", async () => {
      const l = await newLink(org);
      const c = new RecipientClient(baseUrl());
      const noKey = await c.post(`${ctx(l)}/session`, { token: l.token }, { idempotencyKey: null });
      expect(noKey.status).toBe(400);
      expect(noKey.body.error.code).toBe("idempotency_key_required");
      for (const body of [{}, { token: "" }, { token: 5 }, { token: l.token, extra: 1 }]) {
        const r = await c.post("/recipient/session", body);
        expect(r.status, JSON.stringify(body)).toBe(422);
        expect(r.body.error.code).toBe("validation_failed");
      }
      const bad = await c.post("/recipient/session", "{not json");
      expect(bad.status).toBe(400);
      expect(bad.body.error.code).toBe("malformed_request");
      expect((await issuerDetail(l)).version).toBe(1);
    });

    it("wrong tokens: unknown is 401; a token of another request in the request-scoped family is 401; a malformed request id is 404", async () => {
      const a = await newLink(org);
      const b = await newLink(org);
      const c = new RecipientClient(baseUrl());
      for (const [path, token] of [
        ["/recipient/session", "not-a-token"],
        ["/recipient/session", `${a.token.slice(0, -1)}${a.token.endsWith("A") ? "B" : "A"}`],
        [`${ctx(a)}/session`, "not-a-token"],
        [`${ctx(a)}/session`, b.token], // a real token, but of another request
        [`/recipient/contexts/${randomUUID()}/session`, a.token],
      ]) {
        const r = await c.post(path, { token });
        expect(r.status, path).toBe(401);
        expect(r.body).toEqual({ error: { code: "unauthenticated", message: expect.any(String) } });
        expect(r.headers.getSetCookie()).toEqual([]);
      }
      const malformed = await c.post("/recipient/contexts/not-a-uuid/session", { token: a.token });
      expect(malformed.status).toBe(404);
      expect(malformed.body.error.code).toBe("not_found");
      expect((await issuerDetail(a)).version).toBe(1);
      expect((await issuerDetail(b)).version).toBe(1);
    });
  });

  describe("sessions", () => {
    it("recipient calls without, or with an unknown, session are 401; the request-scoped family refuses a session of another request", async () => {
      const a = await newLink(org);
      const b = await newLink(org);
      const c = new RecipientClient(baseUrl());
      for (const path of ["/recipient/invoice", `${ctx(a)}/invoice`]) {
        expect((await c.get(path)).status).toBe(401);
        expect((await c.get(path, { cookie: `fos_recipient=x; fos_recipient_${a.requestId}=%E0%A4%A` })).status).toBe(401);
      }
      const r = await open(c, a);
      const value = r.headers.getSetCookie()[0].split(";")[0].split("=")[1];
      // A's session value sent under B's cookie name and path
      const cross = await c.get(`${ctx(b)}/invoice`, { cookie: `fos_recipient_${b.requestId}=${value}` });
      expect(cross.status).toBe(401);
      expect(cross.body.error.code).toBe("unauthenticated");
      const act = await c.post(`${ctx(b)}/actions`, { action: "acknowledge", expected_version: 1 }, { cookie: `fos_recipient_${b.requestId}=${value}` });
      expect(act.status).toBe(401);
      expect((await issuerDetail(b)).acknowledged).toBe(false);
      expect((await c.get(`/recipient/contexts/not-a-uuid/invoice`)).status).toBe(404);
    });

    it("cross-link isolation: two links' cookies in one cookie jar each reach only their own obligation", async () => {
      const a = await newLink(org, { amount_minor: "1111" });
      const b = await newLink(other, { amount_minor: "2222", currency: "USD" });
      const c = new RecipientClient(baseUrl());
      await open(c, a);
      await open(c, b);
      expect(c.jar.cookies.map((k) => k.name).sort()).toEqual([`fos_recipient_${a.requestId}`, `fos_recipient_${b.requestId}`].sort());
      expect(c.jar.header(`/api/v1${ctx(a)}/invoice`)).not.toContain(b.requestId);
      const ia = await c.get(`${ctx(a)}/invoice`);
      const ib = await c.get(`${ctx(b)}/invoice`);
      expect(ia.body).toMatchObject({ id: a.obligationId, amount_minor: "1111", issuer_name: "Issuer & Sons" });
      expect(ib.body).toMatchObject({ id: b.obligationId, amount_minor: "2222", currency: "USD", issuer_name: "Other Issuer" });
      const acted = await c.post(`${ctx(a)}/actions`, { action: "acknowledge", expected_version: ia.body.version });
      expect(acted.status, acted.text).toBe(200);
      expect((await issuerDetail(a)).acknowledged).toBe(true);
      expect((await issuerDetail(b, other)).acknowledged).toBe(false);
      // even when a client sends both cookies to the same path, each family path reads its own
      const both = c.jar.cookies.map((k) => `${k.name}=${k.value}`).join("; ");
      expect((await c.get(`${ctx(b)}/invoice`, { cookie: both })).body.id).toBe(b.obligationId);
      // idempotency keys are scoped per hosted request: the same key on B executes anew
      const key = `shared-${randomUUID()}`;
      const ka = await c.post(
        `${ctx(a)}/actions`,
        { action: "post_message", expected_version: (await issuerDetail(a)).version, message: "to A" },
        { idempotencyKey: key },
      );
      const kb = await c.post(
        `${ctx(b)}/actions`,
        { action: "post_message", expected_version: (await issuerDetail(b, other)).version, message: "to B" },
        { idempotencyKey: key },
      );
      expect([ka.status, kb.status]).toEqual([200, 200]);
      expect(kb.headers.get("idempotent-replayed")).toBeNull();
      expect((await issuerDetail(b, other)).messages.map((m: any) => m.body)).toEqual(["to B"]);
    });

    it("single-link family: a second link opened in the same browser replaces the first (one link per browser)", async () => {
      const a = await newLink(org);
      const b = await newLink(org);
      const c = new RecipientClient(baseUrl());
      await open(c, a, "single");
      expect((await c.get("/recipient/invoice")).body.id).toBe(a.obligationId);
      await open(c, b, "single");
      expect((await c.get("/recipient/invoice")).body.id).toBe(b.obligationId);
    });

    it("revoking the link ends every session at once: 410 payment_request_revoked on every call and on the exchange", async () => {
      const l = await newLink(org);
      const c1 = new RecipientClient(baseUrl());
      const c2 = new RecipientClient(baseUrl());
      await open(c1, l);
      await open(c2, l, "single");
      const v = (await issuerDetail(l)).version;
      const rv = await org.api.post(`/obligations/${l.obligationId}/actions`, { action: "revoke_link", expected_version: v });
      expect(rv.status, rv.text).toBe(200);
      const calls = [
        () => c1.get(`${ctx(l)}/invoice`),
        () => c2.get("/recipient/invoice"),
        () => c1.post(`${ctx(l)}/actions`, { action: "acknowledge", expected_version: v + 1 }),
        () => c2.post("/recipient/actions", { action: "post_message", expected_version: v + 1, message: "hello?" }),
        () => c1.call("POST", `${ctx(l)}/documents`, { form: form({ expected_version: String(v + 1) }, { name: "proof.pdf", bytes: PDF }) }),
        () => c1.get(`${ctx(l)}/documents/${randomUUID()}`),
        () => c1.post(`${ctx(l)}/session`, { token: l.token }),
        () => c2.post("/recipient/session", { token: l.token }),
      ];
      for (const call of calls) {
        const r = await call();
        expect(r.status, r.text).toBe(410);
        expect(r.body).toEqual({ error: { code: "payment_request_revoked", message: expect.any(String) } });
      }
      const d = await issuerDetail(l);
      expect(d.version).toBe(v + 1);
      expect(d.acknowledged).toBe(false);
      expect(d.messages).toEqual([]);
    });

    it("an expired request ends every session: 410 payment_request_expired (expires_at moved into the past in the database)", async () => {
      const l = await newLink(org);
      const c = new RecipientClient(baseUrl());
      await open(c, l);
      expect((await c.get(`${ctx(l)}/invoice`)).status).toBe(200);
      await db().paymentRequest.updateMany({ where: { id: l.requestId }, data: { expiresAt: new Date(Date.now() - 1000) } });
      for (const r of [
        await c.get(`${ctx(l)}/invoice`),
        await c.post(`${ctx(l)}/actions`, { action: "acknowledge", expected_version: 2 }),
        await c.post(`${ctx(l)}/session`, { token: l.token }),
        await c.post("/recipient/session", { token: l.token }),
      ]) {
        expect(r.status, r.text).toBe(410);
        expect(r.body.error.code).toBe("payment_request_expired");
      }
      expect((await issuerDetail(l)).acknowledged).toBe(false);
    });

    it("a reissued link ends the sessions of the old one (401) and the old token (401); the new link works", async () => {
      const l = await newLink(org);
      const c = new RecipientClient(baseUrl());
      await open(c, l);
      const v = (await issuerDetail(l)).version;
      const re = await org.api.post(`/obligations/${l.obligationId}/actions`, { action: "reissue_link", expected_version: v });
      expect(re.status, re.text).toBe(200);
      const fresh: Link = { ...l, token: tokenOf(re.body.payment_request.hosted_url), hostedUrl: re.body.payment_request.hosted_url };
      secrets.add(fresh.token).add(fresh.hostedUrl);
      const old = await c.get(`${ctx(l)}/invoice`);
      expect(old.status).toBe(401);
      expect(old.body.error.code).toBe("unauthenticated");
      const oldToken = await c.post(`${ctx(l)}/session`, { token: l.token });
      expect(oldToken.status).toBe(401);
      await open(c, fresh);
      expect((await c.get(`${ctx(l)}/invoice`)).status).toBe(200);
    });
  });

  describe("invoice detail", () => {
    it("shows the invoice record, payment terms with payable and due now, conditions, documents and the thread — and nothing issuer-only", async () => {
      const l = await newLink(org, {
        label: "Fit-out",
        conditions: [{ key: "acceptance", label: "Customer acceptance" }],
        payment_terms: [
          { sequence: 1, label: "Deposit", amount_type: "percentage", percentage_basis_points: 3000, trigger_type: "immediately", due_rule: "immediately" },
          {
            sequence: 2,
            label: "On acceptance",
            amount_type: "percentage",
            percentage_basis_points: 7000,
            trigger_type: "condition_satisfied",
            condition_key: "acceptance",
            due_rule: "days_after_trigger",
            due_days: 30,
          },
        ],
      });
      let v = 1;
      const up = (kind: string, name: string) =>
        org.api.call("POST", `/obligations/${l.obligationId}/documents`, { form: form({ expected_version: String(v++), kind }, { name, bytes: PDF }) });
      expect((await up("invoice", "INV.pdf")).status).toBe(201);
      expect((await up("bank_observation", "bank-statement.pdf")).status).toBe(201);
      const msg = await org.api.post(`/obligations/${l.obligationId}/actions`, {
        action: "post_message",
        expected_version: v++,
        message: "Thanks for your business",
      });
      expect(msg.status).toBe(200);

      const c = new RecipientClient(baseUrl());
      await open(c, l);
      const r = await c.get(`${ctx(l)}/invoice`);
      expect(r.status, r.text).toBe(200);
      const inv = ZRecipientInvoice.parse(r.body);
      const issuerView = (await org.api.get(`/invoices/${l.obligationId}`)).body;
      // every invoice-record field equals the issuer's view of the same invoice
      const record = Object.fromEntries(Object.keys(ZInvoiceRecord.shape).map((k) => [k, issuerView[k]]));
      expect(inv).toMatchObject({ ...record, request_id: l.requestId });
      expect(inv).toMatchObject({
        issuer_name: "Issuer & Sons",
        amount_minor: "125000",
        payable_minor: "37500",
        due_minor: "37500",
        status: "PAYMENT_REQUESTED",
        link_revoked: false,
      });
      expect(inv.payment_terms.map((t) => [t.label, t.amount_minor, t.payable_on ?? ""])).toEqual([
        ["Deposit", "37500", dayOffset(0)],
        ["On acceptance", "87500", ""],
      ]);
      expect(inv.conditions).toMatchObject([{ key: "acceptance", status: "waiting" }]);
      expect(inv.documents.map((d) => d.filename)).toEqual(["INV.pdf"]);
      expect(inv.messages).toMatchObject([{ author_type: "issuer", author_name: "Issuer & Sons", body: "Thanks for your business" }]);
      expect(r.body.audit_trail).toBeUndefined();
      expect(r.body.payment_request).toBeUndefined();
      expect(r.text).not.toContain(l.token);
      expect(r.text).not.toContain("/r/");

      const bank = issuerView.documents.find((d: any) => d.kind === "bank_observation");
      expect((await c.get(`${ctx(l)}/documents/${bank.id}`)).status).toBe(404);
      const invDoc = await c.get(`${ctx(l)}/documents/${inv.documents[0].id}`);
      expect(invDoc.status).toBe(200);
      expect(invDoc.headers.get("content-disposition")).toContain("attachment");
    });
  });

  describe("actions", () => {
    it("acknowledge, share_dates, report_payment and post_message: version + 1 each, their events, and the issuer sees each effect", async () => {
      const l = await newLink(org);
      const c = new RecipientClient(baseUrl());
      await open(c, l);
      const act = async (body: Record<string, unknown>) => {
        const r = await c.post(`${ctx(l)}/actions`, body);
        expect(r.status, r.text).toBe(200);
        return ZMutationResult.parse(r.body);
      };

      const ack = await act({ action: "acknowledge", expected_version: 2 });
      expect(ack).toMatchObject({ event_type: "obligation.acknowledged", invoice: { acknowledged: true, version: 3 } });
      const twice = await c.post(`${ctx(l)}/actions`, { action: "acknowledge", expected_version: 3 });
      expect(twice.status).toBe(409);
      expect(twice.body.error.code).toBe("invalid_state");

      const dates = await act({ action: "share_dates", expected_version: 3, expected_payment_date: dayOffset(7) });
      expect(dates).toMatchObject({
        event_type: "obligation.dates_shared",
        invoice: { expected_payment_date: dayOffset(7), version: 4, status: "PAYMENT_REQUESTED" },
      });

      const paid = await act({
        action: "report_payment",
        expected_version: 4,
        reported_payment_date: dayOffset(0),
        amount_minor: "125000",
        reference: "TRF-991",
        note: "Paid from our EUR account",
      });
      expect(paid).toMatchObject({
        event_type: "obligation.payment_reported",
        invoice: { status: "PAYMENT_CLAIMED", reported_payment_date: dayOffset(0), allocated_minor: "0", version: 5 },
      });

      const m = await act({ action: "post_message", expected_version: 5, message: "Transfer sent today." });
      expect(m).toMatchObject({ event_type: "obligation.message_posted", invoice: { version: 6 } });

      const d = await issuerDetail(l);
      expect(d).toMatchObject({
        acknowledged: true,
        expected_payment_date: dayOffset(7),
        reported_payment_date: dayOffset(0),
        status: "PAYMENT_CLAIMED",
        allocated_minor: "0",
        version: 6,
      });
      expect(d.audit_trail.map((e: any) => [e.event_type, e.actor.type])).toEqual([
        ["obligation.registered", "api_key"],
        ["obligation.link_opened", "recipient"],
        ["obligation.acknowledged", "recipient"],
        ["obligation.dates_shared", "recipient"],
        ["obligation.payment_reported", "recipient"],
        ["obligation.message_posted", "recipient"],
      ]);
      expect(d.audit_trail[4].detail).toEqual({
        reported_payment_date: dayOffset(0),
        amount_minor: "125000",
        currency: "EUR",
        reference: "TRF-991",
        note: "Paid from our EUR account",
      });
      expect(d.messages).toMatchObject([{ author_type: "recipient", author_name: "Northwind Traders", body: "Transfer sent today." }]);
      // the recipient's own view follows
      const inv = (await c.get(`${ctx(l)}/invoice`)).body;
      expect(inv).toMatchObject({ version: 6, status: "PAYMENT_CLAIMED", acknowledged: true });
      expect(inv.messages.map((x: any) => x.body)).toEqual(["Transfer sent today."]);
    });

    it("single-link family acts the same way", async () => {
      const l = await newLink(org);
      const c = new RecipientClient(baseUrl());
      await open(c, l, "single");
      const r = await c.post("/recipient/actions", { action: "share_dates", expected_version: 2, expected_payment_date: dayOffset(3) });
      expect(r.status, r.text).toBe(200);
      expect(r.body.event_type).toBe("obligation.dates_shared");
      expect((await issuerDetail(l)).expected_payment_date).toBe(dayOffset(3));
    });

    it("report_payment on a partially reconciled obligation keeps its status; it never settles", async () => {
      const l = await newLink(org);
      const c = new RecipientClient(baseUrl());
      await open(c, l);
      const payment = await org.api.post("/payments", { amount_minor: "1000", currency: "EUR", received_on: dayOffset(-1) });
      expect(payment.status, payment.text).toBe(201);
      const alloc = await org.api.post(`/payments/${payment.body.id}/allocations`, {
        obligation_id: l.obligationId,
        amount_minor: "1000",
        expected_version: 2,
      });
      expect(alloc.status, alloc.text).toBe(200);
      const r = await c.post(`${ctx(l)}/actions`, { action: "report_payment", expected_version: 3, reported_payment_date: dayOffset(-1) });
      expect(r.status, r.text).toBe(200);
      expect(r.body.invoice).toMatchObject({ status: "PARTIALLY_RECONCILED", allocated_minor: "1000", reported_payment_date: dayOffset(-1) });
    });

    it("stale versions are 409 version_conflict; marker and key are required; issuer actions and bad bodies are 422; nothing changes", async () => {
      const l = await newLink(org);
      const c = new RecipientClient(baseUrl());
      await open(c, l);
      const before = await issuerDetail(l);
      const stale = await c.post(`${ctx(l)}/actions`, { action: "post_message", expected_version: 1, message: "stale" });
      expect(stale.status).toBe(409);
      expect(stale.body.error.code).toBe("version_conflict");
      const noMarker = await c.post(`${ctx(l)}/actions`, { action: "acknowledge", expected_version: 2 }, { marker: false });
      expect(noMarker.status).toBe(403);
      expect(noMarker.body.error.code).toBe("request_marker_required");
      const noMarker1 = await c.post("/recipient/actions", { action: "acknowledge", expected_version: 2 }, { marker: false });
      expect(noMarker1.status).toBe(403);
      const noKey = await c.post(`${ctx(l)}/actions`, { action: "acknowledge", expected_version: 2 }, { idempotencyKey: null });
      expect(noKey.status).toBe(400);
      expect(noKey.body.error.code).toBe("idempotency_key_required");
      const cases: [Record<string, unknown>, string][] = [
        [{ action: "mark_sent", expected_version: 2 }, "body.action"],
        [{ action: "revoke_link", expected_version: 2 }, "body.action"],
        [{ action: "acknowledge" }, "body.expected_version"],
        [{ action: "acknowledge", expected_version: 2, note: "x" }, "body.note"],
        [{ action: "share_dates", expected_version: 2 }, "body.expected_payment_date"],
        [{ action: "share_dates", expected_version: 2, expected_payment_date: "soon" }, "body.expected_payment_date"],
        [{ action: "report_payment", expected_version: 2 }, "body.reported_payment_date"],
        [{ action: "report_payment", expected_version: 2, reported_payment_date: dayOffset(0), amount_minor: "12.50" }, "body.amount_minor"],
        [{ action: "report_payment", expected_version: 2, reported_payment_date: dayOffset(0), amount_minor: 1250 }, "body.amount_minor"],
        [{ action: "post_message", expected_version: 2, message: "" }, "body.message"],
        [{ action: "post_message", expected_version: 2, message: "x".repeat(4001) }, "body.message"],
      ];
      for (const [body, field] of cases) {
        const r = await c.post(`${ctx(l)}/actions`, body);
        expect(r.status, JSON.stringify(body)).toBe(422);
        expect(r.body.error.code).toBe("validation_failed");
        expect(r.body.error.message).toContain(field);
      }
      expect(await issuerDetail(l)).toEqual(before);
    });

    it("an action replayed with the same key has one effect", async () => {
      const l = await newLink(org);
      const c = new RecipientClient(baseUrl());
      await open(c, l);
      const key = `act-${randomUUID()}`;
      const body = { action: "post_message", expected_version: 2, message: "once" };
      const a = await c.post(`${ctx(l)}/actions`, body, { idempotencyKey: key });
      const b = await c.post(`${ctx(l)}/actions`, body, { idempotencyKey: key });
      expect([a.status, b.status]).toEqual([200, 200]);
      expect(b.headers.get("idempotent-replayed")).toBe("true");
      expect(b.text).toBe(a.text);
      expect((await issuerDetail(l)).messages).toHaveLength(1);
    });
  });

  describe("documents", () => {
    it("uploads evidence (uploaded_by recipient, sniffed, version + 1) in both families; downloads only documents of its own obligation", async () => {
      const l = await newLink(org);
      const o2 = await newLink(org);
      const c = new RecipientClient(baseUrl());
      await open(c, l);
      await open(c, o2, "single");
      const r = await c.call("POST", `${ctx(l)}/documents`, {
        form: form({ expected_version: "2", kind: "payment_evidence" }, { name: "transfer.pdf", bytes: PDF }),
      });
      expect(r.status, r.text).toBe(201);
      const res = ZMutationResult.parse(r.body);
      expect(res).toMatchObject({ event_type: "obligation.document_added", invoice: { version: 3 } });
      const d = await issuerDetail(l);
      expect(d.documents).toEqual([
        expect.objectContaining({
          id: res.document_id,
          kind: "payment_evidence",
          filename: "transfer.pdf",
          content_type: "application/pdf",
          uploaded_by: "recipient",
          sha256: sha256(PDF),
        }),
      ]);
      expect(d.audit_trail.at(-1)).toMatchObject({ event_type: "obligation.document_added", actor: { type: "recipient" } });
      // the issuer downloads it
      const issuerDl = await fetch(`${baseUrl()}/api/v1/obligations/${l.obligationId}/documents/${res.document_id}`, {
        headers: { authorization: `Bearer ${org.apiKey}` },
      });
      expect(sha256(Buffer.from(await issuerDl.arrayBuffer()))).toBe(sha256(PDF));
      // the recipient downloads it
      const dl = await fetch(`${baseUrl()}/api/v1${ctx(l)}/documents/${res.document_id}`, { headers: { cookie: c.jar.header(`/api/v1${ctx(l)}/documents`) } });
      expect(dl.status).toBe(200);
      expect(dl.headers.get("content-type")).toBe("application/octet-stream");
      expect(dl.headers.get("content-disposition")).toBe(`attachment; filename="transfer.pdf"; filename*=UTF-8''transfer.pdf`);
      expect(dl.headers.get("x-content-type-options")).toBe("nosniff");
      expect(sha256(Buffer.from(await dl.arrayBuffer()))).toBe(sha256(PDF));
      // another obligation's document through the single-link session of o2: 404
      expect((await c.get(`/recipient/documents/${res.document_id}`)).status).toBe(404);
      expect((await c.get(`/recipient/documents/not-a-uuid`)).status).toBe(404);
      // the single-link family uploads too
      const up1 = await c.call("POST", "/recipient/documents", {
        form: form({ expected_version: "2" }, { name: "note.txt", bytes: Buffer.from("We paid on Monday.\n") }),
      });
      expect(up1.status, up1.text).toBe(201);
      expect((await issuerDetail(o2)).documents).toMatchObject([{ uploaded_by: "recipient", kind: "supporting", content_type: "text/plain" }]);
    });

    it("refuses active content (415), needs the marker (403) and a current version (409)", async () => {
      const l = await newLink(org);
      const c = new RecipientClient(baseUrl());
      await open(c, l);
      const html = await c.call("POST", `${ctx(l)}/documents`, {
        form: form({ expected_version: "2" }, { name: "proof.pdf", bytes: Buffer.from("<html><script>alert(1)</script></html>") }),
      });
      expect(html.status).toBe(415);
      expect(html.body.error.code).toBe("unsupported_media_type");
      const noMarker = await c.call("POST", `${ctx(l)}/documents`, { marker: false, form: form({ expected_version: "2" }, { name: "p.pdf", bytes: PDF }) });
      expect(noMarker.status).toBe(403);
      expect(noMarker.body.error.code).toBe("request_marker_required");
      const stale = await c.call("POST", `${ctx(l)}/documents`, { form: form({ expected_version: "1" }, { name: "p.pdf", bytes: PDF }) });
      expect(stale.status).toBe(409);
      expect((await issuerDetail(l)).documents).toEqual([]);
    });
  });

  it("the OpenAPI document describes both families with the recipient session and the marker header", async () => {
    const doc = (await org.api.get("/openapi.json")).body;
    for (const p of ["/recipient/actions", "/recipient/contexts/{request}/actions"]) {
      const op = doc.paths[p].post;
      expect(op.security).toEqual([{ recipientSession: [] }]);
      expect(op.parameters.map((x: any) => x.name)).toEqual(expect.arrayContaining(["Idempotency-Key", "X-Service-Request"]));
      expect(op.responses["410"]).toBeDefined();
    }
    expect(doc.paths["/recipient/contexts/{request}/session"].post.security).toEqual([]);
  });

  // Last: everything above ran through the server; none of its tokens, hosted URLs or
  // session cookie values may appear in its log.
  it("never writes a link token, hosted URL or recipient session value to the server log", async () => {
    expect(secrets.size).toBeGreaterThan(20);
    await new Promise((r) => setTimeout(r, 300));
    const log = readFileSync(inject("logFile"), "utf8");
    expect(log).toContain('"route":"/recipient/contexts/{request}/session"');
    for (const s of secrets) expect(log.includes(s), "a secret is in the log").toBe(false);
  });
});
