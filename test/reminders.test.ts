import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { SMTPServer } from "smtp-server";
import { simpleParser, type ParsedMail } from "mailparser";
import { Api } from "./support/api";
import { dayOffset } from "./support/obligations";
import { RecipientClient, tokenOf } from "./support/recipient";
import { createTestDatabase, freePort, startServer, TEST_CRON_SECRET, type TestServer } from "./support/server";
import { waitUntil } from "./support/webhooks";
import { createOrganization } from "@/lib/organizations/create-organization";

// Reminders, sent (docs/reminders.md) through real servers and a real SMTP server started
// here (smtp-server): the obligation's life is moved by moving its deadline in the database
// relative to today (the sweep's "clock"), each sweep through GET /cron/scheduler. Its own
// database (the sweep covers every organization), like test/scheduler.test.ts; five servers
// on it for the exactly-once case.

const PASSWORD = "correct-horse-battery-staple";
type Mail = ParsedMail & { rcpt: string[] };
const mails: Mail[] = [];
let refuse = (_rcpt: string) => false; // the SMTP server answers 451 to these recipients
let smtp: SMTPServer;
let S: TestServer[] = [];
let sql: pg.Client;

beforeAll(async () => {
  const port = await freePort();
  smtp = new SMTPServer({
    disabledCommands: ["STARTTLS", "AUTH"],
    authOptional: true,
    logger: false,
    onRcptTo(address, _session, cb) {
      if (refuse(address.address)) {
        const err = new Error("4.2.0 mailbox temporarily unavailable") as Error & { responseCode: number };
        err.responseCode = 451;
        cb(err);
        return;
      }
      cb();
    },
    onData(stream, session, cb) {
      simpleParser(stream)
        .then((m) => {
          mails.push(Object.assign(m, { rcpt: session.envelope.rcptTo.map((r) => r.address) }));
          cb();
        })
        .catch(cb);
    },
  });
  await new Promise<void>((resolve) => smtp.listen(port, "127.0.0.1", resolve));
  const env = {
    SCHEDULER_INTERVAL_MS: "0",
    SMTP_URL: `smtp://127.0.0.1:${port}`,
    SMTP_FROM: "reminders@service.example",
    WEBHOOK_RETRY_SCHEDULE: "0,1,1",
    WEBHOOK_WORKER: "off",
  };
  const admin = process.env.TEST_DATABASE_URL;
  const databaseUrl = admin ? await createTestDatabase(admin) : undefined;
  const first = await startServer({ databaseUrl, label: "remind-0", env });
  const rest = await Promise.all([1, 2, 3, 4].map((i) => startServer({ databaseUrl: first.databaseUrl, label: `remind-${i}`, env })));
  S = [first, ...rest];
  process.env.DATABASE_URL = first.databaseUrl;
  sql = new pg.Client({ connectionString: first.databaseUrl });
  await sql.connect();
}, 300_000);

afterAll(async () => {
  await sql?.end();
  await Promise.all(S.slice(1).map((s) => s.stop()));
  await S[0]?.stop();
  await new Promise<void>((r) => (smtp ? smtp.close(() => r()) : r()));
});

async function cron(s: TestServer) {
  const res = await fetch(`${s.baseUrl}/api/v1/cron/scheduler`, { headers: { authorization: `Bearer ${TEST_CRON_SECRET}` } });
  expect(res.status).toBe(200);
  return res.json();
}

async function org(name: string, policy: Record<string, unknown>) {
  const email = `owner-${randomUUID()}@example.test`;
  const r = await createOrganization({ name, ownerEmail: email, ownerPassword: PASSWORD, ownerName: "Olive" });
  const owner = new Api(S[0].baseUrl);
  const s = await owner.post("/session", { email, password: PASSWORD }, { idempotencyKey: null });
  expect(s.status, s.text).toBe(200);
  owner.cookie = s.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const p = await owner.call("PUT", "/reminder-policy", { body: policy, headers: { "idempotency-key": randomUUID() } });
  expect(p.status, p.text).toBe(200);
  const bank = await owner.call("PUT", "/payment-instructions/EUR", {
    body: { account_holder: `${name} GmbH`, iban: "DE89370400440532013000", bic: "COBADEFFXXX" },
    headers: { "idempotency-key": randomUUID() },
  });
  expect(bank.status, bank.text).toBe(200);
  return { organizationId: r.organization_id, api: new Api(S[0].baseUrl, r.api_key) };
}

async function register(api: Api, o: { deadline: string; email?: string; invoice: string; amount?: string }) {
  const r = await api.post("/obligations", {
    obligation_type: "invoice",
    external_reference: { namespace: "erp", id: `${o.invoice}-${randomUUID().slice(0, 6)}` },
    debtor: { name: "Northwind Handel", ...(o.email ? { email: o.email } : {}) },
    amount_minor: o.amount ?? "100000",
    currency: "EUR",
    deadline: o.deadline,
    business_context: { invoice_number: o.invoice },
  });
  expect(r.status, r.text).toBe(201);
  const id = r.body.obligation.id as string;
  const pr = await api.get(`/obligations/${id}/payment-request`);
  expect(pr.status, pr.text).toBe(200);
  return { id, hostedUrl: r.body.payment_request.hosted_url as string, paymentReference: pr.body.payment_reference as string };
}

// Moves the obligation's due date to today + `days` and makes it due for a sweep today.
async function dueIn(obligationId: string, days: number) {
  await sql.query(`UPDATE obligations SET deadline = $2::date, next_scheduled_on = (now() AT TIME ZONE 'UTC')::date WHERE id = $1`, [
    obligationId,
    dayOffset(days),
  ]);
}

// Intl puts no-break spaces in amounts ("1.000,00\u00a0€"): compared as plain spaces.
const plain = (s: string | undefined) => (s ?? "").replace(/[\u00a0\u202f]/g, " ");
const to = (addr: string) => mails.filter((m) => m.rcpt.includes(addr));

async function events(organizationId: string, type: string) {
  const r = await sql.query<{ data: any; obligation_id: string }>(
    `SELECT data, obligation_id::text FROM events WHERE organization_id = $1 AND type = $2 ORDER BY created_at`,
    [organizationId, type],
  );
  return r.rows;
}

const POLICY = {
  enabled: true,
  steps: [
    { offset_days: -3, tone: "friendly" },
    { offset_days: 1, tone: "friendly" },
    { offset_days: 7, tone: "firm" },
    { offset_days: 30, tone: "final" },
  ],
  channel: "email",
  sender_name: "Forderungen Acme",
  reply_to: "ar@acme.example",
  late_payment_interest: { enabled: true, reference_rate_basis_points: 215, margin_basis_points: 800, fixed_compensation_minor: "4000" },
};

describe("reminders by email over an obligation's life", () => {
  it("−3, +1, +7, +30: exactly four emails in the payer's language with the figures, a working link, none after RECONCILED", async () => {
    const o = await org("Mahnwesen", POLICY);
    const payer = `payer-${randomUUID()}@northwind.example`;
    const ob = await register(o.api, { deadline: dayOffset(10), email: payer, invoice: "RE-2026-0042" });
    // The payer opens the page in German: reminders are written in German from then on.
    const page = new RecipientClient(S[0].baseUrl);
    expect((await page.post("/recipient/session", { token: tokenOf(ob.hostedUrl) }, { headers: { "accept-language": "de-DE,de;q=0.9" } })).status).toBe(200);

    await cron(S[0]);
    expect(to(payer)).toHaveLength(0); // 10 days before: no step yet

    const expected: { offset: number; subject: string; interest?: string }[] = [
      { offset: -3, subject: "Erinnerung: 1.000,00 € fällig am" },
      { offset: 1, subject: "Erinnerung: 1.000,00 € war am", interest: "0,28 €" }, // 100000 × 10.15% × 1 / 365 = 27.8 -> 28
      { offset: 7, subject: "Überfällig: 1.000,00 €", interest: "1,95 €" }, // × 7 = 194.7 -> 195
      { offset: 30, subject: "Letzte Mahnung: 1.000,00 €", interest: "8,34 €" }, // × 30 = 834.2 -> 834
    ];
    for (const [i, step] of expected.entries()) {
      await dueIn(ob.id, -step.offset);
      await cron(S[0]);
      await cron(S[0]); // a second sweep the same day sends nothing more
      const got = to(payer);
      expect(got, `after step ${step.offset}`).toHaveLength(i + 1);
      const m = got[i];
      expect(plain(m.subject)).toContain(step.subject);
      expect(m.subject).toContain("RE-2026-0042");
      expect(m.headers.get("content-language")).toBe("de");
      expect(m.from?.value[0]).toEqual({ name: "Forderungen Acme", address: "reminders@service.example" });
      expect(m.replyTo?.value[0].address).toBe("ar@acme.example");
      const text = plain(m.text);
      const html = plain(typeof m.html === "string" ? m.html : "");
      expect(text).toContain("Guten Tag Northwind Handel");
      expect(text).toContain(ob.paymentReference.replace(/(.{4})(?=.)/g, "$1 "));
      expect(text).toContain("DE89 3704 0044 0532 0130 00");
      expect(html).toContain("DE89 3704 0044 0532 0130 00");
      expect(html).not.toMatch(/<script/i);
      if (step.interest) {
        expect(text).toContain(`10,15 % jährlich auf 1.000,00 €: ${step.interest}`);
        expect(text).toContain("Beitreibungskosten: 40,00 €");
      } else expect(text).not.toContain("Verzugszinsen");
      // The hosted link works: its token is exchanged for a session.
      const link = /https?:\/\/\S+\/r\/\S+#\S+/.exec(text)?.[0] ?? "";
      expect(link).not.toBe("");
      expect(html).toContain(`href="${link}"`);
      const c = new RecipientClient(S[0].baseUrl);
      expect((await c.post("/recipient/session", { token: tokenOf(link) })).status).toBe(200);
    }
    const sent = await events(o.organizationId, "obligation.reminder_sent");
    expect(sent.map((e) => e.data.reminder.offset_days)).toEqual([-3, 1, 7, 30]);
    expect(sent.map((e) => e.data.reminder.step)).toEqual([1, 2, 3, 4]);
    expect(JSON.stringify(sent)).not.toContain("/r/"); // no hosted URL in the events

    // A second obligation, paid in full after the first reminder: nothing more.
    const paid = await register(o.api, { deadline: dayOffset(3), email: payer, invoice: "RE-2026-0043", amount: "50000" });
    await cron(S[0]);
    expect(to(payer)).toHaveLength(5);
    const pay = await o.api.post("/payments", { amount_minor: "50000", currency: "EUR", received_on: dayOffset(0) });
    expect(pay.status, pay.text).toBe(201);
    const before = await o.api.get(`/obligations/${paid.id}`);
    const version = before.body.obligation?.version ?? before.body.version;
    const alloc = await o.api.post(`/payments/${pay.body.id}/allocations`, { obligation_id: paid.id, amount_minor: "50000", expected_version: version });
    expect(alloc.status, alloc.text).toBe(200);
    const detail = await o.api.get(`/obligations/${paid.id}`);
    expect(detail.body.obligation?.status ?? detail.body.status).toBe("RECONCILED");
    for (const d of [-1, -7, -30]) {
      await dueIn(paid.id, d);
      await cron(S[0]);
    }
    expect(to(payer)).toHaveLength(5);
  });

  it("several steps reached at once: only the latest goes out, the earlier ones are skipped", async () => {
    const o = await org("Spaet", POLICY);
    const payer = `late-${randomUUID()}@northwind.example`;
    const ob = await register(o.api, { deadline: dayOffset(-8), email: payer, invoice: "RE-LATE-1" });
    await cron(S[0]);
    expect(to(payer)).toHaveLength(1);
    expect(plain(to(payer)[0].subject)).toContain("Overdue: €1,000.00 was due on"); // +7, English (no page language known)
    const r = await sql.query(`SELECT step, status FROM reminders WHERE obligation_id = $1 ORDER BY step`, [ob.id]);
    expect(r.rows).toEqual([
      { step: -3, status: "skipped" },
      { step: 1, status: "skipped" },
      { step: 7, status: "sent" },
    ]);
  });

  it("none while a dispute is open or a promise is before its date; chasing resumes after a rejection and after the promise's date", async () => {
    const o = await org("Streitfall", POLICY);
    const payer = `dispute-${randomUUID()}@northwind.example`;
    const ob = await register(o.api, { deadline: dayOffset(10), email: payer, invoice: "RE-DISP-1" });
    const page = new RecipientClient(S[0].baseUrl);
    expect((await page.post("/recipient/session", { token: tokenOf(ob.hostedUrl) })).status).toBe(200);
    const version = async () => (await page.get("/recipient/invoice")).body.version as number;
    const disputed = await page.post("/recipient/actions", {
      expected_version: await version(),
      action: "dispute",
      reason: "quality",
      message: "Half of it broke.",
    });
    expect(disputed.status, disputed.text).toBe(200);
    await dueIn(ob.id, -1); // +1 reached while the dispute is open
    await cron(S[0]);
    expect(to(payer)).toHaveLength(0);
    expect((await sql.query(`SELECT count(*)::int AS n FROM reminders WHERE obligation_id = $1`, [ob.id])).rows[0].n).toBe(0);
    const d = await o.api.get(`/obligations/${ob.id}`);
    const rejected = await o.api.post(`/obligations/${ob.id}/actions`, {
      action: "resolve_dispute",
      expected_version: d.body.version,
      outcome: "rejected",
      message: "All parts were tested.",
    });
    expect(rejected.status, rejected.text).toBe(200);
    await cron(S[0]);
    await waitUntil(() => to(payer).length === 1);
    expect(to(payer)).toHaveLength(1);

    const listed = (await o.api.get(`/obligations/${ob.id}`)).body.reminders;
    expect(listed).toEqual([expect.objectContaining({ offset_days: 1, status: "sent", channel: "email", sent_at: expect.any(String) })]);

    // A promise to pay in 5 days: the +7 step waits until the day after the promise.
    const promised = await page.post("/recipient/actions", { expected_version: await version(), action: "promise_payment", date: dayOffset(5) });
    expect(promised.status, promised.text).toBe(200);
    await dueIn(ob.id, -7);
    await cron(S[0]);
    expect(to(payer)).toHaveLength(1);
    const next = await sql.query(`SELECT next_scheduled_on::text AS d FROM obligations WHERE id = $1`, [ob.id]);
    expect(next.rows[0].d <= dayOffset(6)).toBe(true);
    // The promise's date passes without payment: chasing resumes.
    await sql.query(`UPDATE obligations SET promise_date = $2::date WHERE id = $1`, [ob.id, dayOffset(-1)]);
    await dueIn(ob.id, -7);
    await cron(S[0]);
    await waitUntil(() => to(payer).length === 2);
    expect(plain(to(payer)[1].subject)).toContain("Overdue");
  });

  it("a failing SMTP server: obligation.reminder_failed with its answer, then a retry that is sent", async () => {
    const o = await org("Fehler", POLICY);
    const payer = `fail-${randomUUID()}@northwind.example`;
    refuse = (a) => a === payer;
    const ob = await register(o.api, { deadline: dayOffset(3), email: payer, invoice: "RE-FAIL-1" });
    await cron(S[0]);
    const failed = await events(o.organizationId, "obligation.reminder_failed");
    expect(failed).toHaveLength(1);
    expect(failed[0].data.reminder.smtp_response).toContain("451");
    expect(failed[0].data.reminder.final).toBe(false);
    expect(to(payer)).toHaveLength(0);
    refuse = () => false;
    // WEBHOOK_RETRY_SCHEDULE=0,1,1: the next attempt one second later.
    await waitUntil(
      async () => {
        await cron(S[0]);
        return to(payer).length === 1;
      },
      20_000,
      300,
    );
    const sent = await events(o.organizationId, "obligation.reminder_sent");
    expect(sent.map((e) => [e.obligation_id, e.data.reminder.attempt])).toEqual([[ob.id, 2]]);
  });

  it("webhook channel, and email without a debtor address: obligation.reminder_due with the texts, no hosted URL", async () => {
    const o = await org("Haken", { ...POLICY, channel: "webhook", late_payment_interest: null });
    const ob = await register(o.api, { deadline: dayOffset(3), email: "ap@northwind.example", invoice: "RE-HOOK-1" });
    await cron(S[0]);
    const due = await events(o.organizationId, "obligation.reminder_due");
    expect(due).toHaveLength(1);
    expect(due[0].obligation_id).toBe(ob.id);
    const rem = due[0].data.reminder;
    expect(Object.keys(rem).sort()).toEqual(["html", "language", "offset_days", "step", "subject", "text"]);
    expect(rem).toMatchObject({ step: 1, offset_days: -3, language: "en" });
    expect(plain(rem.subject)).toContain("Reminder: €1,000.00 due on");
    expect(rem.text).not.toContain("/r/");
    expect(rem.html).not.toContain("/r/");

    const e = await org("Ohne Adresse", POLICY);
    const noMail = await register(e.api, { deadline: dayOffset(3), invoice: "RE-NOMAIL-1" });
    await cron(S[0]);
    const fallback = await events(e.organizationId, "obligation.reminder_due");
    expect(fallback.map((x) => x.obligation_id)).toEqual([noMail.id]);
  });

  it("five servers sweeping at once: each reminder exactly once", async () => {
    const o = await org("Fuenf", POLICY);
    const payers: string[] = [];
    for (let i = 0; i < 12; i++) {
      const payer = `five-${i}-${randomUUID()}@northwind.example`;
      payers.push(payer);
      await register(o.api, { deadline: dayOffset(i % 2 === 0 ? 3 : -1), email: payer, invoice: `RE-FIVE-${i}` });
    }
    await Promise.all([...S, ...S].map((s) => cron(s)));
    await Promise.all(S.map((s) => cron(s)));
    for (const p of payers) expect(to(p), p).toHaveLength(1);
    const sent = await events(o.organizationId, "obligation.reminder_sent");
    expect(sent).toHaveLength(12);
  });
});
