import { sql, type Tx } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { todayUtc } from "@/lib/schemas/common";
import type { TReconciliationStats } from "@/lib/schemas/reconciliation";

export type GetReconciliationStatsInput = { organizationId: string; query: { from?: string; to?: string } };

const DEFAULT_DAYS = 30;

const daysBefore = (d: string, n: number) => new Date(Date.parse(`${d}T00:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10);

// GET /reconciliation/stats: what became of the transactions imported from bank statements
// and booked in [from, to]: each payment counted once, by the first way it was allocated —
// automatically at import, by accepting a suggestion, else by hand.
// `dismissed`: set aside as not a receivable (§9) and not restored; `automatic_allocations_reversed`:
// automatic allocations (the payment's first allocation, made by the import) reversed since.
export async function getReconciliationStats(tx: Tx, input: GetReconciliationStatsInput): Promise<TReconciliationStats> {
  const to = input.query.to ?? todayUtc();
  const from = input.query.from ?? daysBefore(to, DEFAULT_DAYS);
  if (from > to) throw new AppError("validation_failed", "query.from: must not be after `to`");
  const [r] = await sql<{ imported: string; auto: string; accepted: string; by_hand: string; dismissed: string; auto_reversed: string }>(
    tx,
    `WITH imported AS (
       SELECT DISTINCT ON (i.payment_id) i.payment_id, i.match FROM bank_statement_items i
       WHERE i.organization_id = $1::uuid AND i.payment_id IS NOT NULL AND i.booked_on BETWEEN $2::date AND $3::date
       ORDER BY i.payment_id),
     judged AS (
       SELECT m.match = 'auto_allocated' AS auto,
              EXISTS (SELECT 1 FROM suggestion_acceptances a WHERE a.organization_id = $1::uuid AND a.payment_id = m.payment_id) AS accepted,
              EXISTS (SELECT 1 FROM payment_allocations pa WHERE pa.organization_id = $1::uuid AND pa.payment_id = m.payment_id) AS allocated,
              EXISTS (SELECT 1 FROM payments p WHERE p.organization_id = $1::uuid AND p.id = m.payment_id AND p.dismissed_at IS NOT NULL) AS dismissed,
              (SELECT pa.reversed_at IS NOT NULL FROM payment_allocations pa WHERE pa.organization_id = $1::uuid AND pa.payment_id = m.payment_id
                ORDER BY pa.created_at, pa.id LIMIT 1) AS first_reversed
       FROM imported m)
     SELECT count(*)::text AS imported,
            count(*) FILTER (WHERE auto)::text AS auto,
            count(*) FILTER (WHERE NOT auto AND accepted)::text AS accepted,
            count(*) FILTER (WHERE NOT auto AND NOT accepted AND allocated)::text AS by_hand,
            count(*) FILTER (WHERE dismissed)::text AS dismissed,
            count(*) FILTER (WHERE auto AND first_reversed)::text AS auto_reversed
     FROM judged`,
    [input.organizationId, from, to],
  );
  return {
    from,
    to,
    transactions_imported: Number(r.imported),
    allocated_automatically: Number(r.auto),
    accepted_as_suggested: Number(r.accepted),
    allocated_by_hand: Number(r.by_hand),
    dismissed: Number(r.dismissed),
    automatic_allocations_reversed: Number(r.auto_reversed),
  };
}
