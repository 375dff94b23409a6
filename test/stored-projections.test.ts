import { beforeAll, describe, expect, it } from "vitest";
import { db, sql } from "@/lib/db/client";
import { todayUtc } from "@/lib/schemas/common";
import { addDays } from "@/lib/obligations/terms";
import { loadObligation } from "@/lib/obligations/load";
import { toObligationProjection } from "@/lib/obligations/view";
import { PROJECTION_FORMAT } from "@/lib/obligations/stored-projection";
import { newOrg, type OrgFixture } from "./support/fixtures";
import { dayOffset, legacyBody, milestoneBody, registerObligation } from "./support/obligations";
import { allocate, recordPayment } from "./support/payments";

// Stored list projections (lib/obligations/stored-projection.ts, migration 0015): whatever
// changes an obligation, GET /obligations answers exactly what the terms engine computes now
// from the obligation as stored — through the real API and every database.

// The obligation's revision and its stored projection (null fields: none stored).
type Stored = {
  projection_rev: number;
  rev: number | null;
  projection: string | null;
  format: number | null;
  valid_from: string | null;
  valid_until: string | null;
};
const stored = async (id: string) =>
  (
    await sql<Stored>(
      db(),
      `SELECT o.projection_rev, p.rev, p.projection, p.format, p.valid_from::text, p.valid_until::text
         FROM obligations o LEFT JOIN obligation_projections p ON p.organization_id = o.organization_id AND p.obligation_id = o.id
        WHERE o.id = $1::uuid`,
      [id],
    )
  )[0];
// A stored text that holds at the obligation's current revision.
const holds = (s: Stored) => s.projection !== null && s.rev === s.projection_rev;
// Overwrites an obligation's stored text (and more columns: `set`, parameters from $3).
const storeText = (id: string, text: string, set = "", values: unknown[] = []) =>
  sql(db(), `UPDATE obligation_projections SET projection = $2${set} WHERE obligation_id = $1::uuid`, [id, text, ...values]);

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

// The first term falls due five days after today: its text holds until then.
const milestones = (over: Record<string, unknown> = {}) => milestoneBody({ due_rule: "days_after_trigger", due_days: 5 }, over);

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
    expect(holds(s)).toBe(true);
    expect(JSON.parse(s.projection!)).toEqual(r.obligation);
    expect(s.format).toBe(PROJECTION_FORMAT);
    expect(s.valid_from).toBe(today);
    // Term 1 triggered today and falls due in 5 days: due_minor changes then.
    expect(s.valid_until).toBe(addDays(today, 4));
    // An obligation whose terms are all settled in time holds for ever.
    const plain = await registerObligation(org.api, legacyBody({ deadline: dayOffset(-3) }));
    expect((await stored(plain.obligation.id)).valid_until).toBe("9999-12-31");
    // The list answers the stored text as is.
    const items = await expectListIsLive(org);
    expect(items.find((i) => i.id === r.obligation.id)).toEqual(r.obligation);
  });

  it("every change moves the revision past the stored text; the next list computes and stores it again", async () => {
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
    expect(afterAction.projection_rev).toBeGreaterThan(before.projection_rev);
    expect(holds(afterAction)).toBe(false);
    const items = await expectListIsLive(org);
    expect(items.find((i) => i.id === id).expected_payment_date).toBe(dayOffset(12));
    const refilled = await stored(id);
    expect(holds(refilled)).toBe(true);
    expect(JSON.parse(refilled.projection!)).toEqual(act.body.obligation);

    // A condition satisfied (a part and the row change).
    const delivery = r.obligation.conditions.find((c: any) => c.key === "delivery");
    const sat = await org.api.post(`/obligations/${id}/conditions/${delivery.id}/satisfy`, { expected_version: 2, satisfied_on: dayOffset(-15) });
    expect(sat.status, sat.text).toBe(200);
    expect(holds(await stored(id))).toBe(false);
    expect((await expectListIsLive(org)).find((i) => i.id === id).payable_minor).toBe("50000");

    // An allocation of a payment.
    const pay = await recordPayment(org.api, { amount_minor: "700", currency: "EUR" });
    const alloc = await allocate(org.api, pay.id, { obligation_id: id, amount_minor: "700", expected_version: 3 });
    expect(alloc.status, alloc.text).toBe(200);
    expect(holds(await stored(id))).toBe(false);
    expect((await expectListIsLive(org)).find((i) => i.id === id).allocated_minor).toBe("700");

    // A business context linked afterwards.
    const ctx = await org.api.post("/business-contexts", { type: "project", name: "Harbour", reference: "P-HARBOUR" });
    expect(ctx.status, ctx.text).toBe(201);
    const link = await org.api.post(`/obligations/${id}/business-contexts`, { context_id: ctx.body.id, expected_version: 4 });
    expect(link.status, link.text).toBe(201);
    expect(holds(await stored(id))).toBe(false);
    expect((await expectListIsLive(org)).find((i) => i.id === id).contexts.map((c: any) => c.name)).toEqual(["Harbour"]);

    // The linked context renamed by an operator (no API renames one) with the statement
    // docs/architecture.md gives, which touches every linked obligation's row: each shows the new name.
    expect(holds(await stored(id))).toBe(true);
    await sql(
      db(),
      `WITH c AS (UPDATE business_contexts SET name = 'Harbour West' WHERE organization_id = $1::uuid AND id = $2::uuid RETURNING organization_id, id)
       UPDATE obligations o SET projection_rev = o.projection_rev FROM c, obligation_context_links l
        WHERE l.organization_id = c.organization_id AND l.context_id = c.id AND o.organization_id = l.organization_id AND o.id = l.obligation_id`,
      [org.organizationId, ctx.body.id],
    );
    expect(holds(await stored(id))).toBe(false);
    expect((await expectListIsLive(org)).find((i) => i.id === id).contexts.map((c: any) => c.name)).toEqual(["Harbour West"]);
  });

  it("a mutation writes the obligation's row once: the revision (bumped by every UPDATE of the row) moves by one per action or allocation", async () => {
    const r = await registerObligation(org.api, milestones());
    const id = r.obligation.id as string;
    const rev0 = (await stored(id)).projection_rev;
    const act = await org.api.post(`/obligations/${id}/actions`, {
      action: "set_expected_payment_date",
      expected_version: 1,
      expected_payment_date: dayOffset(12),
    });
    expect(act.status, act.text).toBe(200);
    expect((await stored(id)).projection_rev).toBe(rev0 + 1);
    const pay = await recordPayment(org.api, { amount_minor: "700", currency: "EUR" });
    const alloc = await allocate(org.api, pay.id, { obligation_id: id, amount_minor: "700", expected_version: 2 });
    expect(alloc.status, alloc.text).toBe(200);
    expect((await stored(id)).projection_rev).toBe(rev0 + 2);
    expect(alloc.body.obligation).toMatchObject({ version: 3, allocated_minor: "700" });
  });

  it("the scheduler's sweep, which moves only next_scheduled_on, leaves the text holding; anything beside it does not", async () => {
    const r = await registerObligation(org.api, milestones());
    const id = r.obligation.id;
    const before = await stored(id);
    expect(holds(before)).toBe(true);
    // The sweep's statement (lib/scheduler/sweep.ts): the next date anything can happen.
    await sql(db(), "UPDATE obligations SET next_scheduled_on = $2::date WHERE id = $1::uuid", [id, dayOffset(5)]);
    expect(await stored(id)).toEqual(before);
    await expectListIsLive(org);
    // The same column with another one: a new revision.
    await sql(db(), "UPDATE obligations SET next_scheduled_on = $2::date, label = 'Moved' WHERE id = $1::uuid", [id, dayOffset(6)]);
    expect(holds(await stored(id))).toBe(false);
    expect((await expectListIsLive(org)).find((i) => i.id === id).label).toBe("Moved");
    // A touch that changes no column (an operator's, docs/architecture.md): a new revision.
    expect(holds(await stored(id))).toBe(true);
    await sql(db(), "UPDATE obligations SET projection_rev = projection_rev WHERE id = $1::uuid", [id]);
    expect(holds(await stored(id))).toBe(false);
  });

  it("a stored text is not answered on a day it does not hold for, nor in another format", async () => {
    const r = await registerObligation(org.api, milestones());
    const id = r.obligation.id as string;
    const wrong = JSON.stringify({ ...r.obligation, label: "stale text that must never be answered" });
    // At the obligation's revision, but valid only until yesterday.
    await storeText(id, wrong, ", valid_from = $3::date, valid_until = $3::date", [addDays(today, -1)]);
    expect(holds(await stored(id))).toBe(true);
    await expectListIsLive(org);
    const s = await stored(id);
    expect(s.valid_from).toBe(today);
    expect(JSON.parse(s.projection!)).toEqual(await live(org, id));
    // Another format number.
    await storeText(id, wrong, ", format = $3", [PROJECTION_FORMAT + 1]);
    await expectListIsLive(org);
    expect((await stored(id)).format).toBe(PROJECTION_FORMAT);
  });

  it("a text computed before a concurrent change is never answered after it", async () => {
    const r = await registerObligation(org.api, milestones());
    const id = r.obligation.id as string;
    const { projection_rev: rev } = await stored(id);
    // A part changed (the condition satisfied): the mutation's one UPDATE of the row moves the revision once.
    const delivery = r.obligation.conditions.find((c: any) => c.key === "delivery");
    const sat = await org.api.post(`/obligations/${id}/conditions/${delivery.id}/satisfy`, { expected_version: 1, satisfied_on: dayOffset(-15) });
    expect(sat.status, sat.text).toBe(200);
    const moved = await stored(id);
    expect(moved.projection_rev).toBe(rev + 1);
    expect(holds(moved)).toBe(false);
    // A text computed before that change and stored after it (at the old revision).
    await storeText(id, JSON.stringify({ ...r.obligation, label: "computed before the change" }), ", rev = $3", [rev]);
    expect((await expectListIsLive(org)).find((i) => i.id === id).conditions[0].status).toBe("satisfied");
    // New payment terms (the old rows deleted, new ones inserted) with the row: once more.
    const { projection_rev: rev2 } = await stored(id);
    const amend = await org.api.post(`/obligations/${id}/actions`, {
      action: "amend",
      expected_version: 2,
      label: "Dock works",
      payment_terms: [
        { sequence: 1, label: "Deposit", amount_type: "percentage", percentage_basis_points: 10000, trigger_type: "immediately", due_rule: "immediately" },
      ],
    });
    expect(amend.status, amend.text).toBe(200);
    expect((await stored(id)).projection_rev).toBe(rev2 + 1);
    await storeText(id, JSON.stringify(sat.body.obligation), ", rev = $3", [rev2]);
    const item = (await expectListIsLive(org)).find((i) => i.id === id);
    expect(item.label).toBe("Dock works");
    expect(item.payment_terms.map((t: any) => t.label)).toEqual(["Deposit"]);
  });

  it("filtered, searched and sorted lists answer the same items, and only the organization's own", async () => {
    await registerObligation(other.api, milestones({ business_context: { invoice_number: "INV-SHARED-1" } }));
    const mine = await registerObligation(org.api, milestones({ business_context: { invoice_number: "INV-SHARED-2" } }));
    for (const q of ["&search=INV-SHARED", "&sort=amount&direction=asc", "&status=OBLIGATION_CAPTURED&currency=EUR", "&overdue=false", "&limit=2&offset=1"]) {
      await expectListIsLive(org, q);
    }
    const found = await listed(org, "&search=INV-SHARED");
    expect(found.map((i) => i.id)).toEqual([mine.obligation.id]);
    await expectListIsLive(other);
  });
});
