import type { Tx } from "@/lib/db/client";
import { statement } from "@/lib/db/query";
import type { Principal } from "@/lib/auth/principal";
import { AppError } from "@/lib/errors";
import { toDate, todayUtc } from "@/lib/schemas/common";
import { recordEvent } from "@/lib/events/record-event";
import type { EventType } from "@/lib/events/event-types";
import type { TMutationResult } from "@/lib/schemas/obligations";
import type { PaymentRequestRow } from "@/lib/payment-requests/view";
import { loadObligation, loadObligationUpdated, type LoadedObligation, type ObligationSet } from "@/lib/obligations/load";
import { mutationResult, toObligationProjection } from "@/lib/obligations/view";

// Column changes an action makes to the obligations row (version and updated_at are set
// by mutateObligation).
export type ObligationChanges = Omit<ObligationSet, "version" | "updatedAt" | "id" | "organizationId">;

export const versionConflict = (expected: number, current?: number) =>
  new AppError(
    "version_conflict",
    current === undefined
      ? `expected_version ${expected} is no longer the current version; reload and retry`
      : `expected_version ${expected} does not match the current version ${current}; reload and retry`,
  );

const LOCK = statement((q, p: { id: string; org: string; version: number }) =>
  q.selectFrom("obligations").select("id").where("id", "=", p.id).where("organization_id", "=", p.org).where("version", "=", p.version).forNoKeyUpdate(),
);

export const invalidState = (message: string) => new AppError("invalid_state", message);

// The one way to change an existing obligation (optimistic concurrency, docs/architecture.md):
//  1. load it (404 when unknown/foreign/of another type),
//  2. 409 version_conflict when `expectedVersion` is not the current version,
//  3. locks the row if its version is still the expected one (SELECT ... FOR NO KEY UPDATE
//     where version = expected, the lock an UPDATE takes): a concurrent winner has moved
//     the version by the time the lock is granted, no row comes back -> version_conflict,
//     nothing changed; everything below runs against the state that was loaded,
//  4. `apply(loaded)` validates the state (throw invalid_state), may write its own rows
//     with the same `tx` (they roll back with everything else on any error), and returns
//     the column changes of the obligations row, written next together with `version + 1`,
//     `updated_at` and `next_scheduled_on` in the one UPDATE that also reloads the
//     obligation (lib/obligations/load.ts loadObligationUpdated): one new row version per
//     mutation, not two (every UPDATE of an obligation writes an entry into each of its
//     indexes: docs/benchmarks.md, step 20),
//  5. records the event with `data: { obligation: <projection after the change> }` plus
//     whatever `eventData(after)` adds (e.g. `payment` on payment.allocated),
//  6. returns the mutation result (operation_id = the event id).
export async function mutateObligation(
  tx: Tx,
  input: {
    organizationId: string;
    obligationId: string;
    expectedVersion: number;
    principal: Principal;
    eventType: EventType;
    // biome-ignore lint/suspicious/noConfusingVoidType: an action that changes no column returns nothing, async or not
    apply: (loaded: LoadedObligation) => Promise<ObligationChanges | void> | ObligationChanges | void;
    obligationType?: string; // e.g. "invoice" for /invoices/{id}/... (others are 404)
    detail?: Record<string, unknown> | ((before: LoadedObligation) => Record<string, unknown>); // audit-only facts
    paymentRequest?: boolean | PaymentRequestRow; // include the payment request in the result
    documentId?: string;
    observationId?: string;
    paymentId?: string; // links the event to a payment too (payment.allocated)
    eventData?: (after: LoadedObligation) => Promise<Record<string, unknown>> | Record<string, unknown>; // more event `data`
    webhooks?: () => boolean; // asked after `apply`: false records the event without webhook deliveries
  },
): Promise<TMutationResult> {
  const { organizationId, obligationId, expectedVersion } = input;
  const before = await loadObligation(tx, { organizationId, obligationId, obligationType: input.obligationType });
  if (before.version !== expectedVersion) throw versionConflict(expectedVersion, before.version);

  // The guarded lock comes first, so a concurrent mutation of the same version waits here
  // and then finds no row, before any of its side effects.
  const updatedAt = new Date();
  const locked = await LOCK.rows(tx, { id: obligationId, org: organizationId, version: expectedVersion });
  if (locked.length !== 1) throw versionConflict(expectedVersion);
  const changes = (await input.apply(before)) ?? {};
  // The column changes, the version bump and the state after them (with the parts `apply`
  // may have written): one statement. next_scheduled_on = today: a change may move a
  // scheduled date (lib/scheduler/sweep.ts).
  const after = await loadObligationUpdated(tx, {
    organizationId,
    obligationId,
    set: { version: { increment: 1 }, updatedAt, nextScheduledOn: toDate(todayUtc()), ...changes },
  });
  const detail = typeof input.detail === "function" ? input.detail(before) : input.detail;
  const event = await recordEvent(tx, {
    organizationId,
    type: input.eventType,
    principal: input.principal,
    obligationId,
    ...(input.paymentId ? { paymentId: input.paymentId } : {}),
    data: { obligation: toObligationProjection(after), ...(input.eventData ? await input.eventData(after) : {}) },
    ...(detail ? { detail } : {}),
    ...(input.webhooks?.() === false ? { webhooks: false as const } : {}),
  });
  return mutationResult(tx, {
    organizationId,
    obligationId,
    eventId: event.id,
    eventType: input.eventType,
    paymentRequest: input.paymentRequest,
    documentId: input.documentId,
    observationId: input.observationId,
    loaded: after,
  });
}
