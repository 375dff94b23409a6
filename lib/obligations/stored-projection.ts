import { Prisma } from "@/lib/generated/prisma/client";
import { db, sql, type Tx } from "@/lib/db";
import { JsonText, stringifyJson } from "@/lib/http/json";
import { logger } from "@/lib/log";
import { toDate } from "@/lib/schemas/common";
import type { TObligationProjection } from "@/lib/schemas/obligations";
import { compute, loadObligationsByIds, toObligationProjection, type LoadedObligation } from "@/lib/obligations/view";

// Stored list projections (migration 0015): a list answers each obligation with the
// projection text stored beside its row while that text still holds, instead of loading the
// obligation's parts and evaluating its terms on every read (docs/benchmarks.md, step 8).
//
// A stored text holds while
//   - its format is this code's PROJECTION_FORMAT (bump it with any change to what
//     toObligationProjection writes: every stored text is then stale at once);
//   - today is within [projection_from, projection_until] (the days with the same terms
//     evaluation: compute().stableUntil);
//   - nothing it shows has changed: the database clears the text and bumps projection_rev on
//     every update of the obligation and every change of its conditions, payment terms,
//     context links or linked contexts (triggers of migration 0015), whoever writes them.
// A text is written by registration (with the row) and by a list that computed it (at the
// revision it read, so a change in between wins). Nothing else writes the columns.
export const PROJECTION_FORMAT = 1;

type StoredColumns = { projection: string; projectionFormat: number; projectionFrom: Date; projectionUntil: Date };

// The stored-projection columns of an obligation about to be inserted with them (registration),
// from the projection the caller has computed for `today`.
export function storedProjectionColumns(o: LoadedObligation, today: string): StoredColumns {
  return {
    projection: stringifyJson(toObligationProjection(o, today)),
    projectionFormat: PROJECTION_FORMAT,
    projectionFrom: toDate(today),
    projectionUntil: toDate(compute(o, today).stableUntil),
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
  const q = Prisma.sql`SELECT o.id::text AS id,
      CASE WHEN o.projection_format = ${PROJECTION_FORMAT}::int AND o.projection_from <= ${today}::date AND o.projection_until >= ${today}::date
        THEN o.projection END AS projection
    FROM unnest(ARRAY(${input.pick})) WITH ORDINALITY AS picked(id, n) JOIN obligations o ON o.id = picked.id
    WHERE o.organization_id = ${organizationId}::uuid
    ORDER BY picked.n`;
  const rows = await sql<{ id: string; projection: string | null }>(tx, q.text, q.values);
  const missing = rows.flatMap((r) => (r.projection === null ? [r.id] : []));
  const computed = new Map<string, string>();
  if (missing.length > 0) {
    const loaded = await loadObligationsByIds(tx, { organizationId, ids: missing });
    for (const o of loaded) computed.set(o.id, stringifyJson(toObligationProjection(o, today)));
    if (tx === db()) await storeComputed(tx, { organizationId, today, loaded, computed });
  }
  // (An obligation deleted between the two statements is left out.)
  return rows.flatMap((r) => {
    const text = r.projection ?? computed.get(r.id);
    return text === undefined ? [] : [new JsonText<TObligationProjection>(text)];
  });
}

// Stores computed projections, each only at the revision it was computed from and only for a
// row nobody holds locked (a list never waits for a writer). A failure costs the next read a
// computation, never the answer.
async function storeComputed(
  tx: Tx,
  input: { organizationId: string; today: string; loaded: LoadedObligation[]; computed: Map<string, string> },
): Promise<void> {
  const { organizationId, today, loaded, computed } = input;
  try {
    await sql(
      tx,
      `UPDATE obligations o
          SET projection = v.p, projection_format = $2, projection_from = $3::date, projection_until = v.u
         FROM unnest($4::uuid[], $5::int[], $6::text[], $7::date[]) AS v(id, rev, p, u)
        WHERE o.organization_id = $1::uuid AND o.id = v.id AND o.projection_rev = v.rev
          AND o.id IN (SELECT id FROM obligations WHERE organization_id = $1::uuid AND id = ANY($4::uuid[]) FOR UPDATE SKIP LOCKED)`,
      [
        organizationId,
        PROJECTION_FORMAT,
        today,
        loaded.map((o) => o.id),
        loaded.map((o) => o.projectionRev),
        loaded.map((o) => computed.get(o.id)),
        loaded.map((o) => compute(o, today).stableUntil),
      ],
    );
  } catch (err) {
    logger().warn({ err: err instanceof Error ? err.message : String(err) }, "storing list projections failed");
  }
}
