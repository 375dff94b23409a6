// Whether an obligation may be reminded now (extensions.md §11): something outstanding and
// not RECONCILED. When §10 lands, "no open dispute" and "no open promise before its date" join here.
export type EligibleInput = { status: string; amountMinor: bigint; allocatedMinor: bigint };

export function reminderEligible(o: EligibleInput): boolean {
  return o.status !== "RECONCILED" && o.amountMinor - o.allocatedMinor > 0n;
}
