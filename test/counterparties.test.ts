import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it, inject } from "vitest";
import { db } from "@/lib/db/client";
import { baseUrl } from "./support/api";
import { apiKeyWith, newOrg, signedIn, userWith, type OrgFixture } from "./support/fixtures";
import { dayOffset, legacyBody, registerObligation } from "./support/obligations";
import { RecipientClient, tokenOf } from "./support/recipient";
import { upload } from "./support/statements";

// Counterparties, the account link and baskets (docs/recipient-portal.md) over real HTTP.

const debtor = (name: string, email = "") => ({ debtor: { name, ...(email ? { email } : {}) } });

async function register(org: OrgFixture, overrides: Record<string, unknown>) {
  const r = await registerObligation(org.api, legacyBody(overrides));
  return r.invoice.id as string;
}

// Every account-link token, hosted URL and session cookie value seen here (checked against the server log).
const secrets = new Set<string>();

const accountIdOf = (url: string) => new URL(url).pathname.split("/").pop() as string;

async function openAccount(org: OrgFixture, counterpartyId: string) {
  const link = await org.api.post(`/counterparties/${counterpartyId}/account-link`, {});
  expect(link.status, link.text).toBe(201);
  const c = new RecipientClient(baseUrl());
  const account = accountIdOf(link.body.hosted_url);
  const s = await c.post(`/recipient/accounts/${account}/session`, { token: tokenOf(link.body.hosted_url) });
  expect(s.status, s.text).toBe(200);
  secrets.add(link.body.hosted_url).add(tokenOf(link.body.hosted_url));
  for (const sc of s.headers.getSetCookie()) secrets.add(sc.split(";")[0].split("=")[1]);
  expect(s.headers.getSetCookie()[0]).toMatch(
    new RegExp(`^fos_account_${account}=.+Path=/api/v1/recipient/accounts/${account};.*HttpOnly.*SameSite=Strict`, "i"),
  );
  return { c, account, link: link.body, session: s.body };
}

describe("counterparties", () => {
  let org: OrgFixture;
  let other: OrgFixture;
  const tag = randomUUID().slice(0, 6);
  const email = `ap-${tag}@northwind.example`;
  let cpId: string;
  let ids: string[];
  beforeAll(async () => {
    org = await newOrg("Counterparty Org");
    other = await newOrg("Other Org");
    ids = [
      await register(org, { ...debtor("Northwind Traders Ltd", email), amount_minor: "10000", deadline: dayOffset(-5) }),
      await register(org, { ...debtor("NORTHWIND TRADERS", email.toUpperCase()), amount_minor: "20000", deadline: dayOffset(10) }),
      await register(org, { ...debtor("Northwind Traders", email), amount_minor: "3000", currency: "USD", deadline: dayOffset(10) }),
    ];
    await register(org, { debtor: { name: "Müller GmbH" }, amount_minor: "500" });
    await register(org, { debtor: { name: "muller" }, amount_minor: "700" });
    await register(other, { ...debtor("Northwind Traders Ltd", email), amount_minor: "999" });
  });

  it("groups by email case-insensitively, else by normalized name; totals by currency; stable ids", async () => {
    const r = await org.api.get("/counterparties");
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ limit: 50, offset: 0 });
    const nw = r.body.items.find((i: any) => i.email?.toLowerCase() === email);
    expect(nw.open_count).toBe(3);
    expect(nw.outstanding).toEqual([
      { currency: "EUR", amount_minor: "30000" },
      { currency: "USD", amount_minor: "3000" },
    ]);
    expect(nw.overdue).toEqual([{ currency: "EUR", amount_minor: "10000" }]);
    const mu = r.body.items.filter((i: any) => i.email === null);
    expect(mu).toHaveLength(1);
    expect(mu[0].outstanding).toEqual([{ currency: "EUR", amount_minor: "1200" }]);
    cpId = nw.id;
    const again = await org.api.get("/counterparties?q=NORTHWIND");
    expect(again.body.items.map((i: any) => i.id)).toEqual([cpId]);
    expect((await org.api.get("/counterparties?q=nobody-by-this-name")).body.items).toEqual([]);
  });

  it("detail lists the open obligations; another organization's id is 404; a viewer key reads", async () => {
    const r = await org.api.get(`/counterparties/${cpId}`);
    expect(r.status, r.text).toBe(200);
    expect(r.body.obligations.map((o: any) => o.id)).toEqual(ids);
    const theirs = (await other.api.get("/counterparties")).body.items[0].id;
    expect(theirs).not.toBe(cpId);
    expect((await org.api.get(`/counterparties/${theirs}`)).status).toBe(404);
    expect((await other.api.get(`/counterparties/${cpId}`)).status).toBe(404);
    expect((await other.api.post(`/counterparties/${cpId}/account-link`, {})).status).toBe(404);
    const reader = await apiKeyWith(org, ["obligations:read"]);
    expect((await reader.get(`/counterparties/${cpId}`)).status).toBe(200);
    expect((await reader.post(`/counterparties/${cpId}/account-link`, {})).status).toBe(403);
    const viewer = await userWith(org, "viewer");
    const v = await signedIn(viewer.email);
    expect((await v.get("/counterparties")).status).toBe(200);
    expect((await v.post(`/counterparties/${cpId}/account-link`, {})).status).toBe(403);
  });

  it("account link: exchange, listing (later obligations too), action, 404 for another counterparty's obligation", async () => {
    const { c, account, link, session } = await openAccount(org, cpId);
    expect(link.hosted_url).toMatch(new RegExp(`/a/${link.id}#`));
    expect(Date.parse(link.expires_at) - Date.now()).toBeGreaterThan(89 * 86_400_000);
    expect(session).toEqual({ account_id: account, counterparty: { name: "Northwind Traders", email } });
    const later = await register(org, { ...debtor("Northwind", email), amount_minor: "4000" });
    const a = await c.get(`/recipient/accounts/${account}`);
    expect(a.status, a.text).toBe(200);
    expect(a.body.obligations.map((o: any) => o.id)).toEqual([...ids, later]);
    const act = await c.post(`/recipient/accounts/${account}/obligations/${ids[0]}/actions`, {
      action: "acknowledge",
      expected_version: a.body.obligations[0].version,
    });
    expect(act.status, act.text).toBe(200);
    expect((await org.api.get(`/obligations/${ids[0]}`)).body.acknowledged).toBe(true);
    const foreign = (await org.api.get("/counterparties")).body.items.find((i: any) => i.email === null);
    const foreignOb = (await org.api.get(`/counterparties/${foreign.id}`)).body.obligations[0].id;
    expect((await c.post(`/recipient/accounts/${account}/obligations/${foreignOb}/actions`, { action: "acknowledge", expected_version: 1 })).status).toBe(404);
    const doc = new FormData();
    doc.append("expected_version", String((await org.api.get(`/obligations/${ids[1]}`)).body.version));
    doc.append("file", new Blob([new Uint8Array(Buffer.from("%PDF-1.4\n%%EOF\n"))], { type: "application/pdf" }), "proof.pdf");
    const up = await c.call("POST", `/recipient/accounts/${account}/obligations/${ids[1]}/documents`, { form: doc });
    expect(up.status, up.text).toBe(201);
    const docs = (await c.get(`/recipient/accounts/${account}`)).body.obligations.find((o: any) => o.id === ids[1]).documents;
    const dl = await c.get(`/recipient/accounts/${account}/obligations/${ids[1]}/documents/${docs[0].id}`);
    expect(dl.status).toBe(200);
    expect((await c.get(`/recipient/accounts/${account}/obligations/${foreignOb}/documents/${docs[0].id}`)).status).toBe(404);
    // another account's cookie does not open this one
    expect((await new RecipientClient(baseUrl()).get(`/recipient/accounts/${account}`)).status).toBe(401);
  });

  it("an obligation's messages page through the account, newest first; another counterparty's obligation is 404", async () => {
    const { c, account } = await openAccount(org, cpId);
    const ob = ids[1];
    for (const n of [1, 2, 3]) {
      const version = (await org.api.get(`/obligations/${ob}`)).body.version;
      const r = await c.post(`/recipient/accounts/${account}/obligations/${ob}/actions`, {
        action: "post_message",
        expected_version: version,
        message: `Account message ${n}`,
      });
      expect(r.status, r.text).toBe(200);
    }
    const first = await c.get(`/recipient/accounts/${account}/obligations/${ob}/messages?limit=2`);
    expect(first.status, first.text).toBe(200);
    expect(first.body.items.map((m: any) => m.body)).toEqual(["Account message 3", "Account message 2"]);
    expect(first.body).toMatchObject({ limit: 2, offset: 0 });
    const next = await c.get(`/recipient/accounts/${account}/obligations/${ob}/messages?limit=2&offset=2`);
    expect(next.body.items.map((m: any) => m.body)).toEqual(["Account message 1"]);
    expect(next.body.items[0].author_type).toBe("recipient");
    expect((await c.get(`/recipient/accounts/${account}/obligations/${ob}/messages?limit=101`)).status).toBe(422);
    const foreign = (await org.api.get("/counterparties")).body.items.find((i: any) => i.email === null);
    const foreignOb = (await org.api.get(`/counterparties/${foreign.id}`)).body.obligations[0].id;
    expect((await c.get(`/recipient/accounts/${account}/obligations/${foreignOb}/messages`)).status).toBe(404);
    expect((await new RecipientClient(baseUrl()).get(`/recipient/accounts/${account}/obligations/${ob}/messages`)).status).toBe(401);
  });

  it("revoked and expired links: 410; reissue ends the old link; the obligations' own links stay", async () => {
    const first = await openAccount(org, cpId);
    const second = await openAccount(org, cpId);
    expect((await first.c.get(`/recipient/accounts/${first.account}`)).status).toBe(410);
    expect((await second.c.get(`/recipient/accounts/${second.account}`)).status).toBe(200);
    expect((await org.api.get(`/counterparties/${cpId}/account-link`)).body).toMatchObject({ id: second.account, revoked_at: null });
    expect((await org.api.delete(`/counterparties/${cpId}/account-link`)).status).toBe(204);
    expect((await second.c.get(`/recipient/accounts/${second.account}`)).status).toBe(410);
    expect((await org.api.get(`/obligations/${ids[0]}/payment-request`)).status).toBe(200);
    const third = await openAccount(org, cpId);
    await db().accountLink.updateMany({ where: { id: third.account }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const expired = await third.c.get(`/recipient/accounts/${third.account}`);
    expect(expired.status).toBe(410);
    expect(expired.body.error.code).toBe("payment_request_expired");
    const bad = await new RecipientClient(baseUrl()).post(`/recipient/accounts/${third.account}/session`, { token: "x".repeat(43) });
    expect(bad.status).toBe(401);
  });

  describe("baskets", () => {
    let borg: OrgFixture;
    let obs: string[];
    let acct: Awaited<ReturnType<typeof openAccount>>;
    beforeAll(async () => {
      borg = await newOrg("Basket Org");
      obs = [];
      for (const amount of ["10000", "20000", "30000"])
        obs.push(await register(borg, { ...debtor("Basket Payer AG", "pay@basket.example"), amount_minor: amount }));
      const usd = await register(borg, { ...debtor("Basket Payer AG", "pay@basket.example"), amount_minor: "500", currency: "USD" });
      obs.push(usd);
      const cp = (await borg.api.get("/counterparties")).body.items[0].id;
      acct = await openAccount(borg, cp);
    });

    const makeBasket = async (items: unknown[]) => acct.c.post(`/recipient/accounts/${acct.account}/baskets`, { items });

    it("201 with a new RF reference, default amounts, event basket.created; one currency; at most outstanding", async () => {
      const b = await makeBasket([{ obligation_id: obs[0] }, { obligation_id: obs[1], amount_minor: "5000" }]);
      expect(b.status, b.text).toBe(201);
      expect(b.body).toMatchObject({
        currency: "EUR",
        amount_minor: "15000",
        items: [
          { obligation_id: obs[0], amount_minor: "10000" },
          { obligation_id: obs[1], amount_minor: "5000" },
        ],
      });
      expect(b.body.payment_reference).toMatch(/^RF\d{2}BSK[A-Z0-9]+$/);
      expect((await makeBasket([{ obligation_id: obs[0] }, { obligation_id: obs[3] }])).status).toBe(422);
      expect((await makeBasket([{ obligation_id: obs[0], amount_minor: "10001" }])).status).toBe(422);
      const foreign = await register(borg, { ...debtor("Someone Else"), amount_minor: "100" });
      expect((await makeBasket([{ obligation_id: foreign }])).status).toBe(404);
      const ev = await db().event.findFirst({ where: { organizationId: borg.organizationId, type: "basket.created" } });
      expect(ev).not.toBeNull();
    });

    it("POST /payments quoting the reference: a smaller amount fills the items in order", async () => {
      const b = await makeBasket([{ obligation_id: obs[1] }, { obligation_id: obs[2] }]);
      const p = await borg.api.post("/payments", {
        amount_minor: "25000",
        currency: "EUR",
        received_on: dayOffset(0),
        reference: `Payment ${b.body.payment_reference.toLowerCase()}`,
      });
      expect(p.status, p.text).toBe(201);
      expect(p.body.allocated_minor).toBe("25000");
      expect(p.body.allocations.map((a: any) => [a.obligation_id, a.amount_minor])).toEqual([
        [obs[1], "20000"],
        [obs[2], "5000"],
      ]);
      expect((await borg.api.get(`/obligations/${obs[1]}`)).body.status).toBe("RECONCILED");
    });

    it("a CSV statement line with the reference: a larger amount leaves the rest unallocated", async () => {
      const b = await makeBasket([{ obligation_id: obs[0] }]);
      const ref = b.body.payment_reference.replace(/(.{4})(?=.)/g, "$1 ");
      const csv = `Date,Amount,Currency,Name,Text\n${dayOffset(0)},150.00,EUR,Basket Payer AG,Sammelzahlung ${ref}\n`;
      const r = await upload(borg.api, csv, { format: "csv" }, { filename: "basket.csv" });
      expect(r.status, r.text).toBe(201);
      expect(r.body.auto_allocated).toBe(1);
      const pays = (await borg.api.get("/payments")).body.items;
      const paid = pays.find((x: any) => x.amount_minor === "15000");
      expect(paid.allocated_minor).toBe("10000");
      expect(paid.unallocated_minor).toBe("5000");
      expect((await borg.api.get(`/obligations/${obs[0]}`)).body.status).toBe("RECONCILED");
    });
  });

  // Last: none of the tokens, hosted URLs or session values may appear in the server log.
  it("never writes an account-link token, hosted URL or session value to the server log", async () => {
    expect(secrets.size).toBeGreaterThan(10);
    await new Promise((r) => setTimeout(r, 300));
    const log = readFileSync(inject("logFile"), "utf8");
    expect(log).toContain('"route":"/recipient/accounts/{account}/session"');
    for (const s of secrets) expect(log.includes(s), "a secret is in the log").toBe(false);
  });
});
