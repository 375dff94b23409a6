import { beforeAll, describe, expect, it } from "vitest";
import { db, sql, transaction } from "@/lib/db";
import { todayUtc } from "@/lib/schemas/common";
import { addDays } from "@/lib/obligations/terms";
import { loadObligation, toObligationProjection } from "@/lib/obligations/view";
import { PROJECTION_FORMAT } from "@/lib/obligations/stored-projection";
import { newOrg, type OrgFixture } from "./support/fixtures";
import { dayOffset, legacyBody, registerObligation } from "./support/obligations";
import { allocate, recordPayment } from "./support/payments";

// Stored list projections (lib/obligations/stored-projection.ts, migration 0015): whatever
// changes an obligation, GET /obligations answers exactly what the terms engine computes now
// from the obligation as stored — through the real API, the real triggers and both databases.

type Stored = {
  projection: string | null;
  projection_format: number | null;
  projection_from: string | null;
  projection_until: string | null;
  projection_rev: number;
};
const stored = async (id: string) =>
  (
    await sql<Stored>(
      db(),
      "SELECT projection, projection_format, projection_from::text, projection_until::text, projection_rev FROM obligations WHERE id = $1::uuid",
      [id],
    )
  )[0];

// The projection computed now, without anything stored, as the wire carries it.
const live = async (org: OrgFixture, id: string) =>
  JSON.parse(JSON.stringify(toObligationProjection(await loadObligation(db(), { organizationId: org.organizationId, obligationId: id }))));

async function listed(org: OrgFixture, query = ""): Promise<any[]> {
  const r = await org.api.get(`/obligations?limit=100${query}`);
  expect(r.status, r.text).toBe(200);
  return r.body.items;
}

// Every item of the list is the live projection of its obligation, key order included.
async function expectListIsLive(org: OrgFixture, query = "") {
  const items = await listed(org, query);
  for (const item of items) {
    const want = await live(org, item.id);
    expect(item).toEqual(want);
    expect(Object.keys(item)).toEqual(Object.keys(want));
  }
  return items;
}

const milestones = (over: Record<string, unknown> = {}) =>
  legacyBody({
    amount_minor: "100000",
    conditions: [
      { key: "delivery", label: "Goods delivered" },
      { key: "acceptance", label: "Customer acceptance" },
    ],
    payment_terms: [
      { sequence: 1, amount_type: "percentage", percentage_basis_points: 2000, trigger_type: "immediately", due_rule: "days_after_trigger", due_days: 5 },
      {
        sequence: 2,
        amount_type: "percentage",
        percentage_basis_points: 3000,
        trigger_type: "condition_satisfied",
        condition_key: "delivery",
        due_rule: "days_after_trigger",
        due_days: 10,
      },
      {
        sequence: 3,
        amount_type: "percentage",
        percentage_basis_points: 5000,
        trigger_type: "condition_satisfied",
        condition_key: "acceptance",
        due_rule: "immediately",
      },
    ],
    ...over,
  });

let org: OrgFixture;
let other: OrgFixture;
const today = todayUtc();

beforeAll(async () => {
  org = await newOrg("Stored Projections Ltd");
  other = await newOrg("Stored Projections Other");
});

describe("stored list projections", () => {
  it("registration stores the projection it answers, valid until the day before a term next falls due", async () => {
    const r = await registerObligation(org.api, milestones());
    const s = await stored(r.obligation.id);
    expect(s.projection).not.toBeNull();
    expect(JSON.parse(s.projection!)).toEqual(r.obligation);
    expect(s.projection_format).toBe(PROJECTION_FORMAT);
    expect(s.projection_from).toBe(today);
    // Term 1 triggered today and falls due in 5 days: due_minor changes then.
    expect(s.projection_until).toBe(addDays(today, 4));
    // An obligation whose terms are all settled in time holds for ever.
    const plain = await registerObligation(org.api, legacyBody({ deadline: dayOffset(-3) }));
    expect((await stored(plain.obligation.id)).projection_until).toBe("9999-12-31");
    // The list answers the stored text as is.
    const items = await expectListIsLive(org);
    expect(items.find((i) => i.id === r.obligation.id)).toEqual(r.obligation);
  });

  it("every change clears the stored text and bumps the revision; the next list computes and stores it again", async () => {
    const r = await registerObligation(org.api, milestones());
    const id = r.obligation.id as string;
    const before = await stored(id);

    // An action on the obligation (an UPDATE of its row).
    const act = await org.api.post(`/obligations/${id}/actions`, {
      action: "set_expected_payment_date",
      expected_version: 1,
      expected_payment_date: dayOffset(12),
    });
    expect(act.status, act.text).toBe(200);
    const afterAction = await stored(id);
    expect(afterAction.projection).toBeNull();
    expect(afterAction.projection_rev).toBeGreaterThan(before.projection_rev);
    const items = await expectListIsLive(org);
    expect(items.find((i) => i.id === id).expected_payment_date).toBe(dayOffset(12));
    const refilled = await stored(id);
    expect(JSON.parse(refilled.projection!)).toEqual(act.body.obligation);
    expect(refilled.projection_rev).toBe(afterAction.projection_rev);

    // A condition satisfied (a part and the row change).
    const delivery = r.obligation.conditions.find((c: any) => c.key === "delivery");
    const sat = await org.api.post(`/obligations/${id}/conditions/${delivery.id}/satisfy`, { expected_version: 2, satisfied_on: dayOffset(-15) });
    expect(sat.status, sat.text).toBe(200);
    expect((await stored(id)).projection).toBeNull();
    expect((await expectListIsLive(org)).find((i) => i.id === id).payable_minor).toBe("50000");

    // An allocation of a payment.
    const pay = await recordPayment(org.api, { amount_minor: "700", currency: "EUR" });
    const alloc = await allocate(org.api, pay.id, { obligation_id: id, amount_minor: "700", expected_version: 3 });
    expect(alloc.status, alloc.text).toBe(200);
    expect((await stored(id)).projection).toBeNull();
    expect((await expectListIsLive(org)).find((i) => i.id === id).allocated_minor).toBe("700");

    // A business context linked afterwards.
    const ctx = await org.api.post("/business-contexts", { type: "project", name: "Harbour", reference: "P-HARBOUR" });
    expect(ctx.status, ctx.text).toBe(201);
    const revBeforeLink = (await stored(id)).projection_rev;
    const link = await org.api.post(`/obligations/${id}/business-contexts`, { context_id: ctx.body.id, expected_version: 4 });
    expect(link.status, link.text).toBe(201);
    expect((await stored(id)).projection_rev).toBeGreaterThan(revBeforeLink);
    expect((await expectListIsLive(org)).find((i) => i.id === id).contexts.map((c: any) => c.name)).toEqual(["Harbour"]);

    // The linked context renamed by anyone (no API renames one; an operator's SQL does): every
    // obligation linked to it shows the new name.
    await sql(db(), "UPDATE business_contexts SET name = 'Harbour West' WHERE id = $1::uuid", [ctx.body.id]);
    expect((await stored(id)).projection).toBeNull();
    expect((await expectListIsLive(org)).find((i) => i.id === id).contexts.map((c: any) => c.name)).toEqual(["Harbour West"]);
    // A change of a field no projection shows leaves the stored texts alone.
    await expectListIsLive(org);
    const kept = await stored(id);
    await sql(db(), "UPDATE business_contexts SET external_namespace = 'crm', external_id = 'H-1' WHERE id = $1::uuid", [ctx.body.id]);
    expect(await stored(id)).toEqual(kept);
  });

  it("a stored text is not answered on a day it does not hold for, nor in another format", async () => {
    const r = await registerObligation(org.api, milestones());
    const id = r.obligation.id as string;
    const wrong = JSON.stringify({ ...r.obligation, label: "stale text that must never be answered" });
    // Written as a fill would (same revision): valid only until yesterday.
    await sql(db(), "UPDATE obligations SET projection = $2, projection_from = $3::date, projection_until = $3::date WHERE id = $1::uuid", [
      id,
      wrong,
      addDays(today, -1),
    ]);
    expect((await stored(id)).projection).toBe(wrong);
    await expectListIsLive(org);
    const s = await stored(id);
    expect(s.projection_from).toBe(today);
    expect(JSON.parse(s.projection!)).toEqual(await live(org, id));
    // Another format number.
    await sql(db(), "UPDATE obligations SET projection = $2, projection_format = $3 WHERE id = $1::uuid", [id, wrong, PROJECTION_FORMAT + 1]);
    await expectListIsLive(org);
    expect((await stored(id)).projection_format).toBe(PROJECTION_FORMAT);
  });

  it("a text computed before a concurrent change is never stored over it", async () => {
    const r = await registerObligation(org.api, milestones());
    const id = r.obligation.id as string;
    const { projection_rev: rev } = await stored(id);
    // A part changed by a transaction that did not write the obligation's row.
    await transaction((tx) =>
      sql(tx, "UPDATE obligation_conditions SET label = 'Goods delivered to the dock' WHERE obligation_id = $1::uuid AND key = 'delivery'", [id]),
    );
    const moved = await stored(id);
    expect(moved.projection).toBeNull();
    expect(moved.projection_rev).toBe(rev + 1);
    // A fill computed at the old revision finds no row.
    const n = await sql(
      db(),
      "UPDATE obligations SET projection = 'stale', projection_format = $3, projection_from = now()::date, projection_until = now()::date WHERE id = $1::uuid AND projection_rev = $2 RETURNING id",
      [id, rev, PROJECTION_FORMAT],
    );
    expect(n).toHaveLength(0);
    expect((await expectListIsLive(org)).find((i) => i.id === id).conditions[0].label).toBe("Goods delivered to the dock");
    // A transaction that writes the row and then its parts moves the revision once.
    const { projection_rev: rev2 } = await stored(id);
    await transaction(async (tx) => {
      await sql(tx, "UPDATE obligations SET label = 'Dock works' WHERE id = $1::uuid", [id]);
      await sql(tx, "UPDATE payment_terms SET label = 'Deposit' WHERE obligation_id = $1::uuid AND sequence = 1", [id]);
    });
    expect((await stored(id)).projection_rev).toBe(rev2 + 1);
    const item = (await expectListIsLive(org)).find((i) => i.id === id);
    expect(item.label).toBe("Dock works");
    expect(item.payment_terms[0].label).toBe("Deposit");
  });

  it("filtered, searched and sorted lists answer the same items, and only the organization's own", async () => {
    await registerObligation(other.api, milestones({ business_context: { invoice_number: "INV-SHARED-1" } }));
    const mine = await registerObligation(org.api, milestones({ business_context: { invoice_number: "INV-SHARED-2" } }));
    for (const q of ["&search=INV-SHARED", "&sort=amount&direction=asc", "&status=OBLIGATION_CAPTURED&currency=EUR", "&overdue=false", "&limit=2&offset=1"]) {
      await expectListIsLive(org, q);
    }
    const found = await listed(org, "&search=INV-SHARED");
    expect(found.map((i) => i.id)).toEqual([mine.obligation.id]);
    // Stored texts of another organization are never answered by id.
    await expectListIsLive(other);
  });
});
