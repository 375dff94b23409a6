import { sql as raw } from "kysely";
import type { Tx } from "@/lib/db/client";
import { query } from "@/lib/db/query";
import { todayUtc } from "@/lib/schemas/common";

export type ChartRole = "creditor" | "debtor";

// Aging buckets by days past the deadline (today − deadline, in UTC calendar days). Day 0
// (the deadline is today) is not yet due, as in the overdue filter of GET /obligations.
export const AGING_BUCKETS = [
  { key: "current", label: "Not yet due" },
  { key: "1-30", label: "1–30 days" },
  { key: "31-60", label: "31–60 days" },
  { key: "61-90", label: "61–90 days" },
  { key: "90+", label: "Over 90 days" },
] as const;

export type AgingBucket = { key: (typeof AGING_BUCKETS)[number]["key"]; label: string; count: number; outstanding_minor: string };
export type AgingSeries = { organization_role: ChartRole; currency: string; total_minor: string; buckets: AgingBucket[] };

export type AgeReceivablesInput = { organizationId: string; today?: string };

// What is outstanding (amount − allocated) of the obligations not yet RECONCILED, by role,
// currency and aging bucket: one grouped scan of the organization's obligations.
export async function ageReceivables(tx: Tx, input: AgeReceivablesInput): Promise<AgingSeries[]> {
  const today = input.today ?? todayUtc();
  const rows = await query(tx)
    .selectFrom("obligations")
    .select([
      "organization_role as role",
      "currency",
      raw<number>`(CASE WHEN deadline >= ${today}::date THEN 0
                        WHEN deadline >= ${today}::date - 30 THEN 1
                        WHEN deadline >= ${today}::date - 60 THEN 2
                        WHEN deadline >= ${today}::date - 90 THEN 3
                        ELSE 4 END)::int`.as("bucket"),
      raw<number>`count(*)::int`.as("n"),
      raw<string>`sum(amount_minor - allocated_minor)::text`.as("outstanding"),
    ])
    .where("organization_id", "=", input.organizationId)
    .where("status", "<>", "RECONCILED")
    .groupBy([raw`1`, raw`2`, raw`3`])
    .execute();
  const series = new Map<string, { role: ChartRole; currency: string; n: number[]; sums: bigint[] }>();
  for (const r of rows) {
    const key = `${r.role}|${r.currency}`;
    const s = series.get(key) ?? { role: r.role as ChartRole, currency: r.currency, n: [0, 0, 0, 0, 0], sums: [0n, 0n, 0n, 0n, 0n] };
    s.n[r.bucket] += r.n;
    s.sums[r.bucket] += BigInt(r.outstanding);
    series.set(key, s);
  }
  return [...series.values()].sort(byRoleThenCurrency).map((s) => ({
    organization_role: s.role,
    currency: s.currency,
    total_minor: s.sums.reduce((a, b) => a + b, 0n).toString(),
    buckets: AGING_BUCKETS.map((b, i) => ({ key: b.key, label: b.label, count: s.n[i], outstanding_minor: s.sums[i].toString() })),
  }));
}

// Owed to you first, then you owe; currencies alphabetically.
export const byRoleThenCurrency = (a: { role: ChartRole; currency: string }, b: { role: ChartRole; currency: string }) =>
  a.role === b.role ? (a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : 0) : a.role === "creditor" ? -1 : 1;
