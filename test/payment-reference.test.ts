import { beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { inject } from "vitest";
import { baseUrl } from "./support/api";
import { newOrg, type OrgFixture } from "./support/fixtures";
import { createInvoice, legacyBody, registerObligation } from "./support/obligations";
import { allocate, newObligation, recordPayment } from "./support/payments";
import { RecipientClient, tokenOf } from "./support/recipient";
import { formatRf, isValidRf, rfReference } from "@/lib/payment-references/rf";

// ISO 11649 payment references on every obligation, and the direction of payments.
let org: OrgFixture;
beforeAll(async () => {
  org = await newOrg("Payment reference org");
});

describe("payment_reference", () => {
  it("is generated at registration, checksum-valid, and returned where payers and integrators look", async () => {
    const reg = await createInvoice(org.api);
    const id = reg.obligation.id;

    const detail = await org.api.get(`/obligations/${id}`);
    expect(detail.status).toBe(200);
    const rf: string = detail.body.payment_reference;
    expect(rf).toMatch(/^RF\d{2}[A-Z0-9]{1,21}$/);
    expect(isValidRf(rf)).toBe(true);
    // made from the obligation's own reference, so it is unique wherever that is
    expect(rf.slice(4)).toBe(detail.body.reference.replace(/^OBL-/, ""));

    const inv = await org.api.get(`/invoices/${id}`);
    expect(inv.body.payment_reference).toBe(rf);

    const pr = await org.api.get(`/obligations/${id}/payment-request`);
    expect(pr.status).toBe(200);
    expect(pr.body.payment_reference).toBe(rf);

    const draft = await org.api.get(`/invoices/${id}/delivery`);
    expect(draft.status).toBe(200);
    expect(draft.body.text).toContain(formatRf(rf));
    expect(draft.body.html).toContain(formatRf(rf));

    const c = new RecipientClient(baseUrl());
    expect((await c.post("/recipient/session", { token: tokenOf(reg.payment_request.hosted_url) })).status).toBe(200);
    const ri = await c.get("/recipient/invoice");
    expect(ri.status).toBe(200);
    expect(ri.body.payment_reference).toBe(rf);

    // the strict contract shapes keep their fields only
    expect(reg.invoice).not.toHaveProperty("payment_reference");
    expect(reg.obligation).not.toHaveProperty("payment_reference");
  });

  it("differs between obligations of one organization", async () => {
    const refs = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const r = await registerObligation(org.api, legacyBody());
      refs.add((await org.api.get(`/obligations/${r.obligation.id}`)).body.payment_reference);
    }
    expect(refs.size).toBe(5);
  });

  it("the migration's SQL function computes exactly what the code computes (used for the backfill)", async () => {
    const c = new pg.Client({ connectionString: inject("databaseUrl") });
    await c.connect();
    try {
      for (const body of ["539007547034", "7K3M9Q2XBC", "A", "ZZZZZZZZZZZZZZZZZZZZZ", "0000000001", "abc123"]) {
        const { rows } = await c.query("SELECT fos_rf_reference($1) AS rf", [body]);
        expect(rows[0].rf).toBe(rfReference(body));
      }
      // no obligation is left without one
      const { rows } = await c.query("SELECT count(*)::int AS n FROM obligations WHERE payment_reference = ''");
      expect(rows[0].n).toBe(0);
    } finally {
      await c.end();
    }
  });
});

describe("payment direction", () => {
  it("defaults to incoming and is returned on the payment", async () => {
    const p = await recordPayment(org.api);
    expect(p.direction).toBe("incoming");
    const out = await recordPayment(org.api, { direction: "outgoing" });
    expect(out.direction).toBe("outgoing");
    expect((await org.api.get(`/payments/${out.id}`)).body.direction).toBe("outgoing");
    const bad = await org.api.post("/payments", { amount_minor: "100", currency: "EUR", received_on: "2026-01-02", direction: "sideways" });
    expect(bad.status).toBe(422);
    expect(bad.body.error.code).toBe("validation_failed");
  });

  it("allocates incoming payments to creditor-role obligations and outgoing ones to debtor-role ones; the other way is 422 direction_mismatch", async () => {
    const owedToUs = await newObligation(org.api, 5000); // organization_role creditor (default)
    const r = await org.api.post("/obligations", {
      ...legacyBody({ amount_minor: "5000" }),
      organization_role: "debtor",
      creditor: { name: "Supplier GmbH" },
      debtor: undefined,
    });
    expect(r.status, r.text).toBe(201);
    const weOwe = r.body.obligation;

    const incoming = await recordPayment(org.api, { amount_minor: "5000" });
    const outgoing = await recordPayment(org.api, { amount_minor: "5000", direction: "outgoing" });

    const wrong1 = await allocate(org.api, incoming.id, { obligation_id: weOwe.id, amount_minor: "100", expected_version: weOwe.version });
    expect(wrong1.status).toBe(422);
    expect(wrong1.body.error.code).toBe("direction_mismatch");
    const wrong2 = await allocate(org.api, outgoing.id, { obligation_id: owedToUs.id, amount_minor: "100", expected_version: owedToUs.version });
    expect(wrong2.status).toBe(422);
    expect(wrong2.body.error.code).toBe("direction_mismatch");
    // nothing changed
    expect((await org.api.get(`/payments/${incoming.id}`)).body.allocated_minor).toBe("0");
    expect((await org.api.get(`/obligations/${weOwe.id}`)).body.version).toBe(weOwe.version);

    const ok1 = await allocate(org.api, incoming.id, { obligation_id: owedToUs.id, amount_minor: "5000", expected_version: owedToUs.version });
    expect(ok1.status, ok1.text).toBe(200);
    const ok2 = await allocate(org.api, outgoing.id, { obligation_id: weOwe.id, amount_minor: "5000", expected_version: weOwe.version });
    expect(ok2.status, ok2.text).toBe(200);
    expect(ok2.body.obligation.status).toBe("RECONCILED");
  });
});
