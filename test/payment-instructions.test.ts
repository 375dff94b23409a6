import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { baseUrl, type Api } from "./support/api";
import { apiKeyWith, newOrg, signedIn, userWith, type OrgFixture } from "./support/fixtures";
import { createInvoice } from "./support/obligations";
import { RecipientClient, tokenOf } from "./support/recipient";

// Payment instructions over HTTP: owner/admin sessions only, validation naming the field,
// idempotent replays, tenant isolation, and the recipient invoice carrying them.
const GERMAN = {
  account_holder: "Acme Services GmbH",
  iban: "de89 3704 0044 0532 0130 00",
  bic: "cobadeffxxx",
  bank_name: "Commerzbank",
  note: "Quote the reference.",
};

const put = (api: Api, currency: string, body: unknown, key = `pi-${randomUUID()}`) =>
  api.call("PUT", `/payment-instructions/${currency}`, { body, headers: { "idempotency-key": key } });

let org: OrgFixture;
let owner: Api;
beforeAll(async () => {
  org = await newOrg("Payment instructions org");
  owner = await signedIn(org.email);
});

describe("payment instructions", () => {
  it("an owner sets, lists, replaces and deletes a currency's instructions", async () => {
    const r = await put(owner, "EUR", GERMAN);
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({
      currency: "EUR",
      account_holder: "Acme Services GmbH",
      iban: "DE89370400440532013000",
      bic: "COBADEFFXXX",
      account_number: null,
      routing_number: null,
      sort_code: null,
      bank_name: "Commerzbank",
      note: "Quote the reference.",
    });
    expect(Date.parse(r.body.updated_at)).not.toBeNaN();

    const us = await put(owner, "USD", {
      account_holder: "Acme Inc.",
      account_number: "000123456789",
      routing_number: "026009593",
      bank_name: "Bank of America",
    });
    expect(us.status, us.text).toBe(200);

    const list = await owner.get("/payment-instructions");
    expect(list.status).toBe(200);
    expect(list.body.items.map((i: any) => i.currency)).toEqual(["EUR", "USD"]);

    // PUT replaces the whole record: the left-out fields are cleared
    const again = await put(owner, "EUR", { account_holder: "Acme Services GmbH", iban: "DE89370400440532013000" });
    expect(again.status).toBe(200);
    expect(again.body.bic).toBeNull();
    expect(again.body.note).toBeNull();

    expect((await owner.delete("/payment-instructions/USD")).status).toBe(204);
    const gone = await owner.delete("/payment-instructions/USD");
    expect(gone.status).toBe(404);
    expect(gone.body.error.code).toBe("not_found");
    expect((await owner.get("/payment-instructions")).body.items.map((i: any) => i.currency)).toEqual(["EUR"]);
  });

  it("validates the IBAN by its checksum and country length, the BIC by its format, naming the field", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ ...GERMAN, iban: "DE89 3704 0044 0532 0130 01" }, "body.iban"], // check digits
      [{ ...GERMAN, iban: "DE89 3704 0044 0532 0130" }, "body.iban"], // length for DE
      [{ ...GERMAN, iban: "XX89 3704 0044 0532 0130 00" }, "body.iban"], // no such country
      [{ ...GERMAN, bic: "COBADEF" }, "body.bic"],
      [{ ...GERMAN, account_holder: "" }, "body.account_holder"],
      [{ account_holder: "Acme" }, "body.iban"], // neither iban nor account_number
      [{ ...GERMAN, swift: "COBADEFF" }, "swift"], // unknown field
    ];
    for (const [body, field] of cases) {
      const r = await put(owner, "EUR", body);
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(r.body.error.code).toBe("validation_failed");
      expect(r.body.error.message).toContain(field);
    }
    const bad = await put(owner, "XYZ", GERMAN);
    expect(bad.status).toBe(404);
  });

  it("replays an Idempotency-Key and refuses its reuse with another body", async () => {
    const key = `pi-${randomUUID()}`;
    const first = await put(owner, "CHF", { account_holder: "Acme AG", iban: "CH93 0076 2011 6238 5295 7" }, key);
    expect(first.status, first.text).toBe(200);
    const replay = await put(owner, "CHF", { account_holder: "Acme AG", iban: "CH93 0076 2011 6238 5295 7" }, key);
    expect(replay.status).toBe(200);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body).toEqual(first.body);
    const other = await put(owner, "CHF", { account_holder: "Someone else", iban: "CH93 0076 2011 6238 5295 7" }, key);
    expect(other.status).toBe(422);
    const missing = await owner.call("PUT", "/payment-instructions/CHF", { body: GERMAN });
    expect(missing.status).toBe(400);
  });

  it("is for owner and admin sessions only: an API key gets insufficient_scope, members and viewers insufficient_permission", async () => {
    const admin = await signedIn((await userWith(org, "admin")).email);
    expect((await admin.get("/payment-instructions")).status).toBe(200);
    expect((await put(admin, "GBP", { account_holder: "Acme Ltd", account_number: "31926819", sort_code: "60-16-13" })).status).toBe(200);

    for (const role of ["member", "viewer"] as const) {
      const u = await signedIn((await userWith(org, role)).email);
      for (const r of [await u.get("/payment-instructions"), await put(u, "GBP", GERMAN), await u.delete("/payment-instructions/GBP")]) {
        expect(r.status, role).toBe(403);
        expect(r.body.error.code).toBe("insufficient_permission");
      }
    }
    const keyAll = org.api; // all scopes
    const keyWebhooks = await apiKeyWith(org, ["webhooks:write"]);
    for (const k of [keyAll, keyWebhooks]) {
      for (const r of [await k.get("/payment-instructions"), await put(k, "GBP", GERMAN), await k.delete("/payment-instructions/GBP")]) {
        expect(r.status).toBe(403);
        expect(r.body.error.code).toBe("insufficient_scope");
      }
    }
    expect((await put(keyAll, "GBP", GERMAN)).status).toBe(403);
    const anonymous = await owner.call("GET", "/payment-instructions", { cookie: "" });
    expect(anonymous.status).toBe(401);
  });

  it("keeps organizations apart", async () => {
    const other = await newOrg("Other payment instructions org");
    const otherOwner = await signedIn(other.email);
    expect((await otherOwner.get("/payment-instructions")).body.items).toEqual([]);
    expect((await otherOwner.delete("/payment-instructions/EUR")).status).toBe(404);
    expect((await put(otherOwner, "EUR", { account_holder: "Other Ltd", iban: "GB82 WEST 1234 5698 7654 32" })).status).toBe(200);
    const mine = await owner.get("/payment-instructions");
    expect(mine.body.items.find((i: any) => i.currency === "EUR").account_holder).toBe("Acme Services GmbH");
  });

  it("reaches the payer: the recipient invoice carries the instructions of its currency with the payment reference, or null", async () => {
    const saved = await put(owner, "EUR", GERMAN);
    expect(saved.status).toBe(200);
    const eur = await createInvoice(org.api, { currency: "EUR" });
    const c = new RecipientClient(baseUrl());
    expect((await c.post("/recipient/session", { token: tokenOf(eur.payment_request.hosted_url) })).status).toBe(200);
    const inv = await c.get("/recipient/invoice");
    expect(inv.status).toBe(200);
    expect(inv.body.payment_reference).toMatch(/^RF\d{2}/);
    expect(inv.body.payment_instructions).toMatchObject({
      currency: "EUR",
      iban: "DE89370400440532013000",
      bic: "COBADEFFXXX",
      account_holder: "Acme Services GmbH",
    });
    // every field as the issuer saved it, the unset ones null, updated_at to the millisecond
    expect(inv.body.payment_instructions).toEqual(saved.body);
    expect(inv.body.payment_instructions).toMatchObject({ account_number: null, routing_number: null, sort_code: null });

    const jpy = await createInvoice(org.api, { currency: "JPY", amount_minor: "5000" });
    const c2 = new RecipientClient(baseUrl());
    expect((await c2.post("/recipient/session", { token: tokenOf(jpy.payment_request.hosted_url) })).status).toBe(200);
    const none = await c2.get("/recipient/invoice");
    expect(none.status).toBe(200);
    expect(none.body.payment_instructions).toBeNull();
  });
});
