import { type RawBuilder, sql as raw } from "kysely";
import type { Tx } from "@/lib/db/client";
import { query } from "@/lib/db/query";
import { todayUtc } from "@/lib/schemas/common";
import { addDays } from "@/lib/obligations/terms";
import { byRoleThenCurrency, type ChartRole } from "@/lib/overview/age-receivables";

export const CASH_WEEKS = 8;

// Periods of the cash-expected chart: what was expected before today and has not come
// (late), then eight rolling weeks from today (week 1 = today .. today + 6); beyond them
// (later) and without a date yet (a term waiting for a condition) only in the table.
export type CashPeriod = {
  key: string; // "late", "w1".."w8", "later", "unscheduled"
  label: string;
  from?: string; // first day (weeks)
  to?: string; // last day (weeks)
  in_chart: boolean;
  count: number; // obligations with money in the period
  expected_minor: string;
};
export type CashSeries = { organization_role: ChartRole; currency: string; total_minor: string; periods: CashPeriod[] };

export type ExpectCashInput = { organizationId: string; today?: string };

type Row = { role: string; currency: string; bucket: number | null; n: number; expected: string };

// When the outstanding money of open obligations is expected, by role and currency.
// Each open obligation's outstanding amount is spread over its payment terms (the implicit
// term of an obligation without terms: the whole amount, due on the deadline) by the terms
// engine's rules (lib/obligations/terms.ts) evaluated in SQL: a term's amount (fixed, or the
// floor of its percentage with the remainder on the last percentage term), its trigger date
// (registration date, trigger_date, or the date its condition was satisfied or waived) and
// its payable_on. Allocated money covers the terms in payable_on order (then sequence). A
// payment date the payer reported, else the expected payment date set on the obligation,
// moves the whole outstanding amount to that date. One grouped statement.
export async function expectCash(tx: Tx, input: ExpectCashInput): Promise<CashSeries[]> {
  const today = input.today ?? todayUtc();
  const { rows } = await cashQuery(input.organizationId, today).execute(query(tx));
  return toSeries(rows, today);
}

// The statement on its own (scripts/bench/dashboard-charts.ts explains it). Written as text
// with bound parameters (Kysely's sql tag): CTEs and window functions read better so.
function cashQuery(org: string, today: string): RawBuilder<Row> {
  return raw<Row>`
    WITH open AS NOT MATERIALIZED (
      SELECT id, organization_role, currency, amount_minor, allocated_minor, deadline,
             (created_at AT TIME ZONE 'UTC')::date AS registered_on,
             coalesce(reported_payment_date, expected_payment_date) AS promised_on
      FROM obligations
      WHERE organization_id = ${org}::uuid AND status <> 'RECONCILED'
    ),
    declared AS (
      SELECT o.id, o.amount_minor AS total, t.sequence, t.amount_type,
             CASE WHEN t.amount_type = 'fixed' THEN t.fixed_amount_minor::numeric
                  ELSE div(o.amount_minor::numeric * t.percentage_basis_points, 10000) END AS floor_amount,
             CASE WHEN t.amount_type = 'percentage' THEN t.percentage_basis_points ELSE 0 END AS bp,
             CASE t.trigger_type
               WHEN 'immediately' THEN o.registered_on
               WHEN 'specific_date' THEN t.trigger_date
               ELSE (SELECT c.satisfied_on FROM obligation_conditions c
                     WHERE c.organization_id = ${org}::uuid AND c.id = t.condition_id AND c.status <> 'waiting')
             END AS triggered_on,
             t.due_rule, t.due_date, t.due_days
      FROM open o JOIN payment_terms t ON t.organization_id = ${org}::uuid AND t.obligation_id = o.id
    ),
    declared_amounts AS (
      SELECT id, sequence, triggered_on, due_rule, due_date, due_days,
             floor_amount + CASE
               WHEN amount_type = 'percentage'
                AND sequence = max(CASE WHEN amount_type = 'percentage' THEN sequence END) OVER (PARTITION BY id)
               THEN div(total::numeric * sum(bp) OVER (PARTITION BY id), 10000)
                    - sum(CASE WHEN amount_type = 'percentage' THEN floor_amount ELSE 0 END) OVER (PARTITION BY id)
               ELSE 0 END AS amount
      FROM declared
    ),
    terms AS (
      SELECT id, sequence, amount,
             CASE WHEN triggered_on IS NULL THEN NULL
                  WHEN due_rule = 'immediately' THEN triggered_on
                  WHEN due_rule = 'specific_date' THEN due_date
                  ELSE triggered_on + due_days END AS payable_on
      FROM declared_amounts
      UNION ALL
      SELECT o.id, 1, o.amount_minor::numeric, o.deadline
      FROM open o
      WHERE NOT EXISTS (SELECT 1 FROM payment_terms t WHERE t.organization_id = ${org}::uuid AND t.obligation_id = o.id)
    ),
    remaining AS (
      SELECT o.organization_role, o.currency, o.id,
             coalesce(o.promised_on, t.payable_on) AS on_date,
             -- running total through this term (a frame ending before the current row made
             -- PostgreSQL recompute the sum for every row)
             greatest(0, least(t.amount,
               sum(t.amount) OVER (PARTITION BY t.id ORDER BY t.payable_on NULLS LAST, t.sequence ROWS UNBOUNDED PRECEDING)
               - o.allocated_minor)) AS left_minor
      FROM terms t JOIN open o ON o.id = t.id
    )
    SELECT organization_role AS role, currency,
           (CASE WHEN on_date IS NULL THEN NULL
                 WHEN on_date < ${today}::date THEN -1
                 WHEN on_date >= ${today}::date + ${CASH_WEEKS * 7}::int THEN ${CASH_WEEKS}::int
                 ELSE (on_date - ${today}::date) / 7 END)::int AS bucket,
           count(DISTINCT id)::int AS n,
           sum(left_minor)::text AS expected
    FROM remaining
    WHERE left_minor > 0
    GROUP BY 1, 2, 3`;
}

function toSeries(rows: Row[], today: string): CashSeries[] {
  const periods = cashPeriods(today);
  const series = new Map<string, { role: ChartRole; currency: string; n: number[]; sums: bigint[] }>();
  for (const r of rows) {
    const key = `${r.role}|${r.currency}`;
    const s = series.get(key) ?? { role: r.role as ChartRole, currency: r.currency, n: periods.map(() => 0), sums: periods.map(() => 0n) };
    // -1 late -> 0, weeks 0..7 -> 1..8, 8 later -> 9, null unscheduled -> 10
    const i = r.bucket === null ? periods.length - 1 : r.bucket + 1;
    s.n[i] += r.n;
    s.sums[i] += BigInt(r.expected);
    series.set(key, s);
  }
  return [...series.values()].sort(byRoleThenCurrency).map((s) => ({
    organization_role: s.role,
    currency: s.currency,
    total_minor: s.sums.reduce((a, b) => a + b, 0n).toString(),
    periods: periods.map((p, i) => ({ ...p, count: s.n[i], expected_minor: s.sums[i].toString() })),
  }));
}

export function cashPeriods(today: string): Omit<CashPeriod, "count" | "expected_minor">[] {
  const weeks = Array.from({ length: CASH_WEEKS }, (_, w) => ({
    key: `w${w + 1}`,
    label: `Week ${w + 1}`,
    from: addDays(today, 7 * w),
    to: addDays(today, 7 * w + 6),
    in_chart: true,
  }));
  return [
    { key: "late", label: "Late (expected before today)", in_chart: true },
    ...weeks,
    { key: "later", label: `After week ${CASH_WEEKS}`, from: addDays(today, 7 * CASH_WEEKS), in_chart: false },
    { key: "unscheduled", label: "No date yet (waiting for a condition)", in_chart: false },
  ];
}
