import { isChasingPaused, type ChasingState } from "@/lib/obligations/chasing-paused";
import { addDays } from "@/lib/obligations/terms";
import { fromDate } from "@/lib/schemas/common";

// Whether an obligation may be reminded now (docs/reminders.md): owed to the organization,
// something outstanding, not RECONCILED, and chasing not paused by an open dispute or an open
// promise before its date (§10, lib/obligations/chasing-paused.ts).
export type EligibleInput = ChasingState & { organizationRole: string; status: string; amountMinor: bigint; allocatedMinor: bigint };

export function reminderEligible(o: EligibleInput, today: string): boolean {
  return o.organizationRole === "creditor" && o.status !== "RECONCILED" && o.amountMinor - o.allocatedMinor > 0n && !isChasingPaused(o, today);
}

// When a paused obligation should be looked at again: the day after an open promise's date;
// null for an open dispute (resolving it wakes the obligation for the next sweep).
export function resumesOn(o: ChasingState): string | null {
  return o.promiseStatus === "open" && o.promiseDate !== null ? addDays(fromDate(o.promiseDate), 1) : null;
}
