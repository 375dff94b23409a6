import type { Tx } from "@/lib/db/client";
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

  const locked = await tx.$queryRawUnsafe<{ id: string; version: number; amount_minor: bigint; allocated_minor: bigint; status: string }[]>(
    `SELECT id::text AS id, version, amount_minor, allocated_minor, status FROM obligations
     WHERE organization_id = $1::uuid AND id = ANY($2::uuid[]) ORDER BY id FOR UPDATE`,
    organizationId,
    ids,
  );
  const ok = new Set<string>();
  for (const row of locked) {
    const planned = present(byObligation.get(row.id), "planned allocations");
    const total = planned.reduce((s, a) => s + a.amountMinor, 0n);
    if (Number(row.version) === planned[0].expectedVersion && row.status !== "RECONCILED" && BigInt(row.allocated_minor) + total <= BigInt(row.amount_minor)) {
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
    await tx.$executeRawUnsafe(
      `INSERT INTO payment_allocations (id, organization_id, payment_id, obligation_id, amount_minor, created_at)
       SELECT a.id, $1::uuid, a.payment_id, a.obligation_id, a.amount, $2::timestamptz
       FROM unnest($3::uuid[], $4::uuid[], $5::uuid[], $6::bigint[]) AS a(id, payment_id, obligation_id, amount)`,
      organizationId,
      now.toISOString(),
      chunkIds,
      chunk.map((a) => a.paymentId),
      chunk.map((a) => a.obligationId),
      chunk.map((a) => a.amountMinor.toString()),
    );
    // One allocation per payment (automatic allocations are single-allocation).
    await tx.$executeRawUnsafe(
      `UPDATE payments p SET allocated_minor = p.allocated_minor + a.amount, updated_at = $2::timestamptz
       FROM unnest($3::uuid[], $4::bigint[]) AS a(id, amount)
       WHERE p.organization_id = $1::uuid AND p.id = a.id`,
      organizationId,
      now.toISOString(),
      chunk.map((a) => a.paymentId),
      chunk.map((a) => a.amountMinor.toString()),
    );
  }
  const obligationIds = [...ok];
  const totals = obligationIds.map((id) => present(byObligation.get(id), "planned allocations").reduce((s, a) => s + a.amountMinor, 0n));
  await tx.$executeRawUnsafe(
    `UPDATE obligations o SET allocated_minor = o.allocated_minor + a.amount, version = o.version + a.n, updated_at = $2::timestamptz,
       status = CASE WHEN o.allocated_minor + a.amount = o.amount_minor THEN 'RECONCILED' ELSE 'PARTIALLY_RECONCILED' END
     FROM unnest($3::uuid[], $4::bigint[], $5::int[]) AS a(id, amount, n)
     WHERE o.organization_id = $1::uuid AND o.id = a.id`,
    organizationId,
    now.toISOString(),
    obligationIds,
    totals.map(String),
    obligationIds.map((id) => present(byObligation.get(id), "planned allocations").length),
  );

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
