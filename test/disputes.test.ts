import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { Api } from "./support/api";
import { dayOffset, legacyBody, registerObligation } from "./support/obligations";
import { RecipientClient, requestIdOf, tokenOf } from "./support/recipient";
import { createTestDatabase, startServer, TEST_CRON_SECRET, type TestServer } from "./support/server";
import { createOrganization } from "@/lib/organizations/create-organization";

// Disputes, promises to pay and the inbox (docs/recipient-portal.md), through the real server: the
// payer acts with a real hosted-link exchange (request-scoped family), the issuer answers
// with its API key, the clock's sweep runs on the cron route. Time is moved the way
// test/scheduler.test.ts moves it: by setting dates back in the database. This file runs its
// own server on its own database (the sweep covers every organization), with
// SCHEDULER_INTERVAL_MS=0: only the cron route sweeps.

let S: TestServer;
let sql: pg.Client;

beforeAll(async () => {
  const admin = process.env.TEST_DATABASE_URL;
  const databaseUrl = admin ? await createTestDatabase(admin) : undefined;
  S = await startServer({ databaseUrl, label: "disputes", env: { SCHEDULER_INTERVAL_MS: "0" } });
  process.env.DATABASE_URL = S.databaseUrl;
  sql = new pg.Client({ connectionString: S.databaseUrl });
  await sql.connect();
}, 300_000);

afterAll(async () => {
  await sql?.end();
  await S?.stop();
});

type Org = { organizationId: string; api: Api };

async function org(name: string): Promise<Org> {
  const r = await createOrganization({
    name,
    ownerEmail: `owner-${crypto.randomUUID()}@example.test`,
    ownerPassword: "correct-horse-battery-staple",
    ownerName: "Olive",
  });
  return { organizationId: r.organization_id, api: new Api(S.baseUrl, r.api_key) };
}

type Payer = { obligationId: string; c: RecipientClient; ctx: string; version: () => Promise<number> };

// Registers an obligation and opens its hosted link as the payer would.
async function payerOf(o: Org, overrides: Record<string, unknown> = {}): Promise<Payer> {
  const r = await registerObligation(o.api, legacyBody(overrides));
  const hostedUrl = r.payment_request.hosted_url as string;
  const c = new RecipientClient(S.baseUrl);
  const ctx = `/recipient/contexts/${requestIdOf(hostedUrl)}`;
  const s = await c.post(`${ctx}/session`, { token: tokenOf(hostedUrl) });
  expect(s.status, s.text).toBe(200);
  const version = async () => (await c.get(`${ctx}/invoice`)).body.version as number;
  return { obligationId: r.invoice.id, c, ctx, version };
}

async function act(p: Payer, body: Record<string, unknown>) {
  return p.c.post(`${p.ctx}/actions`, { expected_version: await p.version(), ...body });
}

async function resolve(o: Org, obligationId: string, outcome: "accepted" | "rejected", message: string) {
  const d = await o.api.get(`/obligations/${obligationId}`);
  return o.api.post(`/obligations/${obligationId}/actions`, { action: "resolve_dispute", expected_version: d.body.version, outcome, message });
}

async function sweep() {
  for (let i = 0; i < 50; i++) {
    const res = await fetch(`${S.baseUrl}/api/v1/cron/scheduler`, { headers: { authorization: `Bearer ${TEST_CRON_SECRET}` } });
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(200);
    if (!body.more) return body;
  }
  throw new Error("sweep: still more after 50 calls");
}

async function eventsOf(organizationId: string, obligationId: string, types: string[]) {
  const r = await sql.query(`SELECT type, data FROM events WHERE organization_id = $1 AND obligation_id = $2 AND type = ANY($3) ORDER BY created_at, id`, [
    organizationId,
    obligationId,
    types,
  ]);
  return r.rows as { type: string; data: any }[];
}

describe("disputes", () => {
  let A: Org;
  beforeAll(async () => {
    A = await org("Dispute Issuer");
  });

  it("the payer disputes: `dispute` in the recipient invoice and the issuer detail, event obligation.disputed; a second one while open is 409", async () => {
    const p = await payerOf(A);
    const r = await act(p, { action: "dispute", reason: "wrong_amount", message: "The deposit was agreed at 25 %.", amount_minor: "10000" });
    expect(r.status, r.text).toBe(200);
    expect(r.body.event_type).toBe("obligation.disputed");
    const inv = (await p.c.get(`${p.ctx}/invoice`)).body;
    expect(inv.dispute).toMatchObject({
      status: "open",
      reason: "wrong_amount",
      message: "The deposit was agreed at 25 %.",
      amount_minor: "10000",
      resolved_at: null,
    });
    expect(Date.parse(inv.dispute.opened_at)).not.toBeNaN();
    expect(inv.promise).toBeNull();
    const d = (await A.api.get(`/obligations/${p.obligationId}`)).body;
    expect(d.dispute).toEqual(inv.dispute);
    expect(d.audit_trail.at(-1)).toMatchObject({
      event_type: "obligation.disputed",
      actor: { type: "recipient" },
      detail: { reason: "wrong_amount", amount_minor: "10000" },
    });
    const [ev] = await eventsOf(A.organizationId, p.obligationId, ["obligation.disputed"]);
    expect(ev.data.dispute.status).toBe("open");

    const again = await act(p, { action: "dispute", reason: "other", message: "Still wrong" });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("invalid_state");
  });

  it("bad dispute input is 422: unknown reason, empty message, an amount above the obligation's", async () => {
    const p = await payerOf(A);
    for (const body of [
      { action: "dispute", reason: "too_expensive", message: "x" },
      { action: "dispute", reason: "quality", message: "   " },
      { action: "dispute", reason: "quality", message: "x", amount_minor: "125001" },
    ]) {
      const r = await act(p, body);
      expect(r.status, r.text).toBe(422);
      expect(r.body.error.code).toBe("validation_failed");
    }
  });

  it("the issuer resolves (rejected, then a new dispute accepted); resolving without an open dispute is 409; another organization's obligation is 404", async () => {
    const p = await payerOf(A);
    const none = await resolve(A, p.obligationId, "rejected", "Nothing to resolve");
    expect(none.status).toBe(409);
    expect((await act(p, { action: "dispute", reason: "not_received", message: "Never got the goods" })).status).toBe(200);
    const B = await org("Other Issuer");
    const foreign = await B.api.post(`/obligations/${p.obligationId}/actions`, {
      action: "resolve_dispute",
      expected_version: 1,
      outcome: "accepted",
      message: "x",
    });
    expect(foreign.status).toBe(404);
    const r = await resolve(A, p.obligationId, "rejected", "Delivered on the 3rd, signed by J. Smith.");
    expect(r.status, r.text).toBe(200);
    expect(r.body.event_type).toBe("obligation.dispute_resolved");
    const inv = (await p.c.get(`${p.ctx}/invoice`)).body;
    expect(inv.dispute).toMatchObject({ status: "rejected", reason: "not_received", resolution_message: "Delivered on the 3rd, signed by J. Smith." });
    expect(inv.dispute.resolved_at).not.toBeNull();
    // A rejected dispute may be followed by another one.
    expect((await act(p, { action: "dispute", reason: "quality", message: "Half of it is broken" })).status).toBe(200);
    expect((await resolve(A, p.obligationId, "accepted", "Credit note follows")).status).toBe(200);
    expect((await A.api.get(`/obligations/${p.obligationId}`)).body.dispute).toMatchObject({ status: "accepted", reason: "quality" });
  });

  it("obligation.overdue waits while the dispute is open and catches up after the rejection", async () => {
    // Deadline 10 days ago, registered 20 days ago: thresholds 1 and 7 passed since registration.
    const p = await payerOf(A, { deadline: dayOffset(-10) });
    // (the date computed here: Citus refuses a time zone-dependent function of a column in an UPDATE)
    await sql.query("UPDATE obligations SET created_at = $2 WHERE id = $1", [p.obligationId, new Date(Date.now() - 20 * 86_400_000)]);
    expect((await act(p, { action: "dispute", reason: "already_paid", message: "Paid on the 1st" })).status).toBe(200);
    await sweep();
    expect(await eventsOf(A.organizationId, p.obligationId, ["obligation.overdue"])).toEqual([]);
    await sweep();
    expect(await eventsOf(A.organizationId, p.obligationId, ["obligation.overdue"])).toEqual([]);

    expect((await resolve(A, p.obligationId, "rejected", "No such payment arrived")).status).toBe(200);
    await sweep();
    const overdue = await eventsOf(A.organizationId, p.obligationId, ["obligation.overdue"]);
    // One sweep's events share their created_at: compare as a set.
    expect(overdue.map((e) => e.data.days_overdue).sort((a, b) => a - b)).toEqual([1, 7]);
    await sweep();
    expect(await eventsOf(A.organizationId, p.obligationId, ["obligation.overdue"])).toHaveLength(2);
  });
});

describe("promises", () => {
  let A: Org;
  beforeAll(async () => {
    A = await org("Promise Issuer");
  });

  it("promise_payment: default amount is what is outstanding; `promise` in both views; event obligation.payment_promised", async () => {
    const p = await payerOf(A);
    const date = dayOffset(5);
    const r = await act(p, { action: "promise_payment", date });
    expect(r.status, r.text).toBe(200);
    expect(r.body.event_type).toBe("obligation.payment_promised");
    const inv = (await p.c.get(`${p.ctx}/invoice`)).body;
    expect(inv.promise).toMatchObject({ date, amount_minor: "125000", status: "open", decided_at: null });
    expect((await A.api.get(`/obligations/${p.obligationId}`)).body.promise).toEqual(inv.promise);
    const [ev] = await eventsOf(A.organizationId, p.obligationId, ["obligation.payment_promised"]);
    expect(ev.data.promise).toMatchObject({ date, amount_minor: "125000", status: "open" });
  });

  it("a date in the past, beyond 180 days, or an amount above what is outstanding is 422 with a clear message", async () => {
    const p = await payerOf(A);
    const past = await act(p, { action: "promise_payment", date: dayOffset(-1) });
    expect(past.status).toBe(422);
    expect(past.body.error).toEqual({ code: "validation_failed", message: `the promised date must be today (${dayOffset(0)}) or later` });
    const far = await act(p, { action: "promise_payment", date: dayOffset(181) });
    expect(far.status).toBe(422);
    expect(far.body.error.message).toContain("at most 180 days ahead");
    expect((await act(p, { action: "promise_payment", date: dayOffset(180) })).status).toBe(200);
    const much = await act(p, { action: "promise_payment", date: dayOffset(3), amount_minor: "125001" });
    expect(much.status).toBe(422);
    expect(much.body.error.message).toContain("more than what is outstanding");
  });

  it("kept: the settled amount grows by the promised amount; the sweep tells promise.kept once", async () => {
    const p = await payerOf(A);
    expect((await act(p, { action: "promise_payment", date: dayOffset(2), amount_minor: "50000" })).status).toBe(200);
    await sweep();
    expect(await eventsOf(A.organizationId, p.obligationId, ["promise.kept", "promise.broken"])).toEqual([]);
    const pay = await A.api.post("/payments", { amount_minor: "50000", currency: "EUR", received_on: dayOffset(0), payer_name: "Northwind Traders" });
    expect(pay.status, pay.text).toBe(201);
    const d = (await A.api.get(`/obligations/${p.obligationId}`)).body;
    const alloc = await A.api.post(`/payments/${pay.body.id}/allocations`, {
      obligation_id: p.obligationId,
      amount_minor: "50000",
      expected_version: d.version,
    });
    expect(alloc.status, alloc.text).toBe(200);
    await sweep();
    const evs = await eventsOf(A.organizationId, p.obligationId, ["promise.kept", "promise.broken"]);
    expect(evs.map((e) => e.type)).toEqual(["promise.kept"]);
    expect(evs[0].data.promise).toMatchObject({ status: "kept", amount_minor: "50000", settled_since_minor: "50000" });
    expect(evs[0].data.obligation.id).toBe(p.obligationId);
    expect((await p.c.get(`${p.ctx}/invoice`)).body.promise).toMatchObject({ status: "kept", amount_minor: "50000" });
    await sweep();
    expect(await eventsOf(A.organizationId, p.obligationId, ["promise.kept", "promise.broken"])).toHaveLength(1);
  });

  it("broken: nothing settled by date + 3 days; told at the first sweep after that day, once", async () => {
    const p = await payerOf(A);
    expect((await act(p, { action: "promise_payment", date: dayOffset(0) })).status).toBe(200);
    // Three days later: not yet broken.
    await sql.query(`UPDATE obligations SET promise_date = promise_date - 3, next_scheduled_on = (now() AT TIME ZONE 'UTC')::date WHERE id = $1`, [
      p.obligationId,
    ]);
    await sweep();
    expect(await eventsOf(A.organizationId, p.obligationId, ["promise.kept", "promise.broken"])).toEqual([]);
    expect((await A.api.get(`/obligations/${p.obligationId}`)).body.promise.status).toBe("open");
    // Four days later: broken.
    await sql.query(`UPDATE obligations SET promise_date = promise_date - 1, next_scheduled_on = (now() AT TIME ZONE 'UTC')::date WHERE id = $1`, [
      p.obligationId,
    ]);
    await sweep();
    const evs = await eventsOf(A.organizationId, p.obligationId, ["promise.kept", "promise.broken"]);
    expect(evs.map((e) => e.type)).toEqual(["promise.broken"]);
    expect(evs[0].data.promise).toMatchObject({ status: "broken", date: dayOffset(-4), settled_since_minor: "0" });
    expect((await A.api.get(`/obligations/${p.obligationId}`)).body.promise).toMatchObject({ status: "broken", date: dayOffset(-4) });
    await sweep();
    expect(await eventsOf(A.organizationId, p.obligationId, ["promise.broken"])).toHaveLength(1);
  });
});

describe("inbox", () => {
  it("lists what payers did (newest first), filters by kind and unread, marks read; another organization's item is 404", async () => {
    const A = await org("Inbox Issuer");
    const B = await org("Inbox Other");
    const p = await payerOf(A);
    expect((await act(p, { action: "acknowledge" })).status).toBe(200); // not an inbox item
    expect((await act(p, { action: "post_message", message: "Which PO is this for?" })).status).toBe(200);
    expect((await act(p, { action: "report_payment", reported_payment_date: dayOffset(0), amount_minor: "125000" })).status).toBe(200);
    expect((await act(p, { action: "dispute", reason: "quality", message: "Scratched" })).status).toBe(200);
    expect((await act(p, { action: "promise_payment", date: dayOffset(7) })).status).toBe(200);
    const f = new FormData();
    f.append("expected_version", String(await p.version()));
    f.append(
      "file",
      new Blob([new TextEncoder().encode("%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n")], { type: "application/pdf" }),
      "proof.pdf",
    );
    const up = await p.c.call("POST", `${p.ctx}/documents`, { form: f });
    expect(up.status, up.text).toBe(201);
    const other = await payerOf(B);
    expect((await act(other, { action: "post_message", message: "Hello B" })).status).toBe(200);

    const all = await A.api.get("/inbox");
    expect(all.status, all.text).toBe(200);
    expect(all.body.items.map((i: any) => i.kind)).toEqual(["document", "promise", "dispute", "payment_reported", "message"]);
    expect(all.body).toMatchObject({ limit: 50, offset: 0 });
    const [doc, promise, dispute, reported, message] = all.body.items;
    expect(message.detail).toEqual({ message: "Which PO is this for?" });
    expect(reported.detail).toEqual({ reported_payment_date: dayOffset(0), amount_minor: "125000" });
    expect(dispute.detail).toEqual({ reason: "quality", message: "Scratched" });
    expect(promise.detail).toEqual({ date: dayOffset(7) });
    expect(doc.detail).toMatchObject({ filename: "proof.pdf" });
    expect(message.obligation).toMatchObject({ id: p.obligationId, debtor_name: "Northwind Traders", amount_minor: "125000", currency: "EUR" });
    for (const i of all.body.items) expect(i.read_at).toBeNull();
    // The item's event is the payer's action in the audit trail.
    const trail = (await A.api.get(`/obligations/${p.obligationId}`)).body.audit_trail;
    expect(trail.find((e: any) => e.id === dispute.event_id).event_type).toBe("obligation.disputed");

    const disputes = await A.api.get("/inbox?kind=dispute");
    expect(disputes.body.items.map((i: any) => i.id)).toEqual([dispute.id]);
    const read = await A.api.post(`/inbox/${dispute.id}/read`);
    expect(read.status, read.text).toBe(200);
    expect(read.body.read_at).not.toBeNull();
    const again = await A.api.post(`/inbox/${dispute.id}/read`);
    expect(again.body.read_at).toBe(read.body.read_at);
    expect((await A.api.get("/inbox?unread=true")).body.items.map((i: any) => i.kind)).toEqual(["document", "promise", "payment_reported", "message"]);
    expect((await A.api.get("/inbox?unread=false")).body.items.map((i: any) => i.id)).toEqual([dispute.id]);
    expect((await A.api.get("/inbox?limit=2&offset=1")).body.items.map((i: any) => i.kind)).toEqual(["promise", "dispute"]);

    // Tenant isolation: B sees only its own item, and A's item id is 404 for B.
    expect((await B.api.get("/inbox")).body.items.map((i: any) => i.detail)).toEqual([{ message: "Hello B" }]);
    const foreign = await B.api.post(`/inbox/${message.id}/read`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe("not_found");
    expect((await A.api.get("/inbox?unread=true")).body.items).toHaveLength(4);
    expect((await A.api.post(`/inbox/${crypto.randomUUID()}/read`)).status).toBe(404);
    expect((await A.api.get("/inbox?kind=upload")).status).toBe(422);
  });
});
