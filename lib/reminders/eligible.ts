// Whether an obligation may be reminded now (extensions.md §11): owed to the organization,
// something outstanding, not RECONCILED. When §10 lands, "no open dispute" and "no open
// promise before its date" join here.
export type EligibleInput = { organizationRole: string; status: string; amountMinor: bigint; allocatedMinor: bigint };

export function reminderEligible(o: EligibleInput): boolean {
  return o.organizationRole === "creditor" && o.status !== "RECONCILED" && o.amountMinor - o.allocatedMinor > 0n;
}
