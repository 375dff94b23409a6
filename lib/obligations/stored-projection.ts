import { Prisma } from "@/lib/generated/prisma/client";
import { db, sql, type Tx } from "@/lib/db/client";
import { JsonText, stringifyJson } from "@/lib/http/json";
import { logger } from "@/lib/log";
import type { TObligationProjection } from "@/lib/schemas/obligations";
import { compute, loadObligationsByIds, pickedObligations, toObligationProjection, type LoadedObligation } from "@/lib/obligations/view";

// Stored list projections (migration 0015): a list answers each obligation with the
// projection text stored for it (table obligation_projections) while that text still holds,
// instead of loading the obligation's parts and evaluating its terms on every read
// (docs/benchmarks.md, step 8).
//
// A stored text holds while
//   - its revision is the obligation's `projection_rev`: the database bumps that on every
//     update of the obligation and every change of its conditions, payment terms, context
//     links or linked contexts (triggers of migration 0015), whoever writes them — so a text
//     computed before a change is never answered after it, whenever it was stored;
//   - its format is this code's PROJECTION_FORMAT (bump it with any change to what
//     toObligationProjection writes: every stored text is then stale at once);
//   - today is within [valid_from, valid_until] (the days with the same terms evaluation:
//     compute().stableUntil).
// Texts are written by registration (in its one insert) and by a list that computed them.
export const PROJECTION_FORMAT = 1;

// The stored-projection row of an obligation at revision `o.projectionRev`, for `today`
// (days as "YYYY-MM-DD": the date columns take them as they are, here and in insertRows).
export function storedProjectionRow(o: LoadedObligation, today: string) {
  return {
    obligationId: o.id,
    organizationId: o.organizationId,
    rev: o.projectionRev,
    format: PROJECTION_FORMAT,
    validFrom: today,
    validUntil: compute(o, today).stableUntil,
    projection: stringifyJson(toObligationProjection(o, today)),
  };
}

// The projections of the obligations whose ids `pick` selects (a SELECT id ... ORDER BY ...
// LIMIT/OFFSET over this organization's obligations), in its order, as JSON text. One
// statement reads the ids with the stored texts that hold today; the others are loaded with
// their parts, computed, and (on the plain database handle, not inside a request's
// transaction) stored for the next read.
export async function loadProjectionsPicked(
  tx: Tx,
  input: { organizationId: string; pick: Prisma.Sql; today: string },
): Promise<JsonText<TObligationProjection>[]> {
  const { organizationId, today } = input;
  const q = Prisma.sql`SELECT o.id::text AS id, p.projection
    FROM ${pickedObligations(input.pick, organizationId)}
    LEFT JOIN obligation_projections p ON p.organization_id = o.organization_id AND p.obligation_id = o.id AND p.rev = o.projection_rev
      AND p.format = ${PROJECTION_FORMAT}::int AND p.valid_from <= ${today}::date AND p.valid_until >= ${today}::date
    WHERE o.organization_id = ${organizationId}::uuid
    ORDER BY picked.n`;
  const rows = await sql<{ id: string; projection: string | null }>(tx, q.text, q.values);
  const missing = rows.flatMap((r) => (r.projection === null ? [r.id] : []));
  const computed = new Map<string, string>();
  if (missing.length > 0) {
    const loaded = await loadObligationsByIds(tx, { organizationId, ids: missing });
    const stored = loaded.map((o) => storedProjectionRow(o, today));
    for (const r of stored) computed.set(r.obligationId, r.projection);
    if (tx === db()) await storeProjections(tx, { rows: stored });
  }
  // (An obligation deleted between the two statements is left out.)
  return rows.flatMap((r) => {
    const text = r.projection ?? computed.get(r.id);
    return text === undefined ? [] : [new JsonText<TObligationProjection>(text)];
  });
}

// Stores computed projections (a newer revision is never replaced by an older one). A
// failure costs the next read a computation, never the answer.
async function storeProjections(tx: Tx, input: { rows: ReturnType<typeof storedProjectionRow>[] }): Promise<void> {
  const { rows } = input;
  try {
    await sql(
      tx,
      `INSERT INTO obligation_projections AS p (obligation_id, organization_id, rev, format, valid_from, valid_until, projection)
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::int[], $4::int[], $5::date[], $6::date[], $7::text[])
       ON CONFLICT (organization_id, obligation_id) DO UPDATE
          SET rev = EXCLUDED.rev, format = EXCLUDED.format, valid_from = EXCLUDED.valid_from,
              valid_until = EXCLUDED.valid_until, projection = EXCLUDED.projection
        WHERE p.rev <= EXCLUDED.rev`,
      [
        rows.map((r) => r.obligationId),
        rows.map((r) => r.organizationId),
        rows.map((r) => r.rev),
        rows.map((r) => r.format),
        rows.map((r) => r.validFrom),
        rows.map((r) => r.validUntil),
        rows.map((r) => r.projection),
      ],
    );
  } catch (err) {
    logger().warn({ err: err instanceof Error ? err.message : String(err) }, "storing list projections failed");
  }
}
