import { fromDate } from "@/lib/schemas/common";
import type { LoadedObligation } from "@/lib/obligations/load";

// Whether chasing this obligation (reminders, docs/reminders.md) waits today: a dispute is
// open, or a promise to pay is open and its date has not passed (`today`: UTC YYYY-MM-DD).
// Overdue events wait for an open dispute only (lib/scheduler/plan.ts `overdueWaits`).
export type ChasingState = Pick<LoadedObligation, "disputeStatus" | "promiseStatus" | "promiseDate">;

export function isChasingPaused(o: ChasingState, today: string): boolean {
  if (o.disputeStatus === "open") return true;
  return o.promiseStatus === "open" && o.promiseDate !== null && fromDate(o.promiseDate) >= today;
}
