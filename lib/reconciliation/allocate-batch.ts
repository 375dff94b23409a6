import { sql as raw } from "kysely";
import type { Tx } from "@/lib/db/client";
import { query } from "@/lib/db/query";
import type { Principal } from "@/lib/auth/principal";
import { newId } from "@/lib/ids";
import { recordEvent } from "@/lib/events/record-event";
import { loadObligationsByIds, type LoadedObligation } from "@/lib/obligations/load";
import { toObligationProjection } from "@/lib/obligations/view";
import { todayUtc } from "@/lib/schemas/common";
import type { TPayment } from "@/lib/schemas/payments";
import { present } from "@/lib/present";

export type PlannedAllocation = {
  paymentId: string;
  payment: TPayment; // the payment as created by this import (nothing allocated yet)
  obligationId: string;
  obligationReference: string;
  amountMinor: bigint;
  expectedVersion: number; // the obligation's version before this allocation
};

const CHUNK = 1000;

// The automatic allocations of one import, written with multi-row statements instead of one
// allocatePayment call each, with the same effects: one allocation row, the payment's and
// the obligation's allocated amounts, the obligation's status and version (+1 per
// allocation), and one `payment.allocated` event per allocation carrying the obligation
// projection and the payment after that allocation.
//
// Locking as in allocatePayment: the payments are this transaction's own new rows (nobody
// else sees them yet); the obligations are locked FOR UPDATE in id order, and an obligation
// whose version or outstanding amount is no longer what the plan was computed against (a
// concurrent change since the candidates were read) gets none of its planned allocations.
// Returns the payment ids that were allocated.
export type AllocateBatchInput = { organizationId: string; principal: Principal; plan: PlannedAllocation[] };

export async function allocateBatch(tx: Tx, { organizationId, principal, plan }: AllocateBatchInput): Promise<Set<string>> {
  if (plan.length === 0) return new Set();
  const byObligation = new Map<string, PlannedAllocation[]>();
  for (const a of plan) byObligation.set(a.obligationId, [...(byObligation.get(a.obligationId) ?? []), a]);
  const ids = [...byObligation.keys()].sort();

  const locked = await query(tx)
    .selectFrom("obligations")
    .select(["id", "version", "amount_minor as amountMinor", "allocated_minor as allocatedMinor", "status"])
    .where("organization_id", "=", organizationId)
    .where(raw<boolean>`id = any(${ids}::uuid[])`)
    .orderBy("id")
    .forUpdate()
    .execute();
  const ok = new Set<string>();
  for (const row of locked) {
    const planned = present(byObligation.get(row.id), "planned allocations");
    const total = planned.reduce((s, a) => s + a.amountMinor, 0n);
    if (row.version === planned[0].expectedVersion && row.status !== "RECONCILED" && row.allocatedMinor + total <= row.amountMinor) {
      ok.add(row.id);
    }
  }
  const applied = plan.filter((a) => ok.has(a.obligationId));
  if (applied.length === 0) return new Set();

  const now = new Date();
  const allocationIds = applied.map(() => newId());
  for (let i = 0; i < applied.length; i += CHUNK) {
    const chunk = applied.slice(i, i + CHUNK);
    const chunkIds = allocationIds.slice(i, i + CHUNK);
    const paymentIds = chunk.map((a) => a.paymentId);
    const amounts = chunk.map((a) => a.amountMinor);
    await query(tx)
      .insertInto("payment_allocations")
      .columns(["id", "organization_id", "payment_id", "obligation_id", "amount_minor", "created_at"])
      .expression((eb) =>
        eb
          .selectFrom(
            raw<{
              id: string;
              payment_id: string;
              obligation_id: string;
              amount: bigint;
            }>`unnest(${chunkIds}::uuid[], ${paymentIds}::uuid[], ${chunk.map((a) => a.obligationId)}::uuid[], ${amounts}::bigint[])`.as<"a">(
              raw`a(id, payment_id, obligation_id, amount)`,
            ),
          )
          .select([
            "a.id",
            raw<string>`${organizationId}::uuid`.as("organization_id"),
            "a.payment_id",
            "a.obligation_id",
            "a.amount",
            raw<Date>`${now}::timestamptz`.as("created_at"),
          ]),
      )
      .execute();
    // One allocation per payment (automatic allocations are single-allocation).
    await query(tx)
      .updateTable("payments as p")
      .from(raw<{ id: string; amount: bigint }>`unnest(${paymentIds}::uuid[], ${amounts}::bigint[])`.as<"a">(raw`a(id, amount)`))
      .set((eb) => ({ allocated_minor: eb("p.allocated_minor", "+", eb.ref("a.amount")), updated_at: now }))
      .where("p.organization_id", "=", organizationId)
      .whereRef("p.id", "=", "a.id")
      .execute();
  }
  const obligationIds = [...ok];
  const totals = obligationIds.map((id) => present(byObligation.get(id), "planned allocations").reduce((s, a) => s + a.amountMinor, 0n));
  const counts = obligationIds.map((id) => present(byObligation.get(id), "planned allocations").length);
  await query(tx)
    .updateTable("obligations as o")
    .from(
      raw<{ id: string; amount: bigint; n: number }>`unnest(${obligationIds}::uuid[], ${totals}::bigint[], ${counts}::int[])`.as<"a">(raw`a(id, amount, n)`),
    )
    .set((eb) => ({
      allocated_minor: eb("o.allocated_minor", "+", eb.ref("a.amount")),
      version: eb("o.version", "+", eb.ref("a.n")),
      updated_at: now,
      status: eb
        .case()
        .when(eb("o.allocated_minor", "+", eb.ref("a.amount")), "=", eb.ref("o.amount_minor"))
        .then("RECONCILED")
        .else("PARTIALLY_RECONCILED")
        .end(),
    }))
    .where("o.organization_id", "=", organizationId)
    .whereRef("o.id", "=", "a.id")
    .execute();

  // Events: the projection after each allocation (intermediate states of an obligation paid
  // twice in one file), from the obligations as they are now.
  // One statement per chunk with every part of the obligations (Prisma's include would send
  // one query per relation and parent chunk, the slowest part of a large import).
  const loaded = new Map<string, LoadedObligation>();
  for (let i = 0; i < obligationIds.length; i += CHUNK) {
    for (const r of await loadObligationsByIds(tx, { organizationId, ids: obligationIds.slice(i, i + CHUNK) })) loaded.set(r.id, r);
  }
  const today = todayUtc();
  const running = new Map<string, { allocated: bigint; version: number }>();
  const events = applied.map((a, i) => {
    const final = present(loaded.get(a.obligationId), "locked obligation");
    const before = running.get(a.obligationId) ?? {
      allocated: final.allocatedMinor - totals[obligationIds.indexOf(a.obligationId)],
      version: a.expectedVersion,
    };
    const after = { allocated: before.allocated + a.amountMinor, version: before.version + 1 };
    running.set(a.obligationId, after);
    const obligation = toObligationProjection(
      {
        ...final,
        allocatedMinor: after.allocated,
        version: after.version,
        status: after.allocated === final.amountMinor ? "RECONCILED" : "PARTIALLY_RECONCILED",
      },
      today,
    );
    const allocation = {
      id: allocationIds[i],
      obligation_id: a.obligationId,
      obligation_reference: a.obligationReference,
      amount_minor: a.amountMinor.toString(),
      created_at: now.toISOString(),
      reversed_at: null,
      reversal_reason: "",
    };
    const payment: TPayment = {
      ...a.payment,
      allocated_minor: a.amountMinor.toString(),
      unallocated_minor: (BigInt(a.payment.amount_minor) - a.amountMinor).toString(),
      allocations: [allocation],
      updated_at: now.toISOString(),
      status: BigInt(a.payment.amount_minor) === a.amountMinor ? "allocated" : "partially_allocated",
    };
    return {
      type: "payment.allocated" as const,
      obligationId: a.obligationId,
      paymentId: a.paymentId,
      data: {
        obligation,
        payment,
        detail: {
          payment_id: a.paymentId,
          allocation_id: allocationIds[i],
          amount_minor: a.amountMinor.toString(),
          allocated_minor_before: before.allocated.toString(),
        },
      },
    };
  });
  await recordEvent(tx, { organizationId, principal, events });
  return new Set(applied.map((a) => a.paymentId));
}
