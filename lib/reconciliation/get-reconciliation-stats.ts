import { sql as raw } from "kysely";
import type { Tx } from "@/lib/db/client";
import { query } from "@/lib/db/query";
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
  const org = input.organizationId;
  const [r] = await query(tx)
    .with("imported", (w) =>
      w
        .selectFrom("bank_statement_items as i")
        .distinctOn("i.payment_id")
        .select(["i.payment_id", "i.match"])
        .where("i.organization_id", "=", org)
        .where("i.payment_id", "is not", null)
        .where((eb) => eb.between("i.booked_on", raw<Date>`${from}::date`, raw<Date>`${to}::date`))
        .orderBy("i.payment_id"),
    )
    .with("judged", (w) =>
      w
        .selectFrom("imported as m")
        .select((eb) => [
          eb("m.match", "=", "auto_allocated").as("auto"),
          eb
            .exists(
              eb
                .selectFrom("suggestion_acceptances as a")
                .select("a.payment_id")
                .where("a.organization_id", "=", org)
                .whereRef("a.payment_id", "=", "m.payment_id"),
            )
            .as("accepted"),
          eb
            .exists(
              eb.selectFrom("payment_allocations as pa").select("pa.id").where("pa.organization_id", "=", org).whereRef("pa.payment_id", "=", "m.payment_id"),
            )
            .as("allocated"),
          eb
            .exists(
              eb
                .selectFrom("payments as p")
                .select("p.id")
                .where("p.organization_id", "=", org)
                .whereRef("p.id", "=", "m.payment_id")
                .where("p.dismissed_at", "is not", null),
            )
            .as("dismissed"),
          eb
            .selectFrom("payment_allocations as pa")
            .select(raw<boolean>`pa.reversed_at IS NOT NULL`.as("reversed"))
            .where("pa.organization_id", "=", org)
            .whereRef("pa.payment_id", "=", "m.payment_id")
            .orderBy("pa.created_at")
            .orderBy("pa.id")
            .limit(1)
            .as("first_reversed"),
        ]),
    )
    .selectFrom("judged")
    .select([
      raw<number>`count(*)::int`.as("imported"),
      raw<number>`(count(*) FILTER (WHERE auto))::int`.as("auto"),
      raw<number>`(count(*) FILTER (WHERE NOT auto AND accepted))::int`.as("accepted"),
      raw<number>`(count(*) FILTER (WHERE NOT auto AND NOT accepted AND allocated))::int`.as("byHand"),
      raw<number>`(count(*) FILTER (WHERE dismissed))::int`.as("dismissed"),
      raw<number>`(count(*) FILTER (WHERE auto AND first_reversed))::int`.as("autoReversed"),
    ])
    .execute();
  return {
    from,
    to,
    transactions_imported: r.imported,
    allocated_automatically: r.auto,
    accepted_as_suggested: r.accepted,
    allocated_by_hand: r.byHand,
    dismissed: r.dismissed,
    automatic_allocations_reversed: r.autoReversed,
  };
}
