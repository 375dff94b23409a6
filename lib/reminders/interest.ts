// Late-payment interest as information (Directive 2011/7/EU, simple interest per day):
// overdue × (rate_bp / 10000) × days / 365, in bigint minor units, rounded half up
// (docs/reminders.md has a worked example). Nothing is charged: amount_minor never changes.
export function lateInterestMinor(overdueMinor: bigint, rateBasisPoints: number, days: number): bigint {
  if (overdueMinor <= 0n || rateBasisPoints <= 0 || days <= 0) return 0n;
  const num = overdueMinor * BigInt(rateBasisPoints) * BigInt(days);
  const den = 10_000n * 365n;
  return (num + den / 2n) / den;
}
