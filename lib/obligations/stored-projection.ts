import { sql as raw } from "kysely";
import { columnsJson } from "@/lib/db/camel";
import { db, type Tx } from "@/lib/db/client";
import { query, statement, type Query, type Statement } from "@/lib/db/query";
import type { ObligationProjection } from "@/lib/generated/kysely/database";
import { JsonText, stringifyJson } from "@/lib/http/json";
import { logger } from "@/lib/log";
import type { TObligationProjection } from "@/lib/schemas/obligations";
import { loadObligationsByIds, pickedLookup, type LoadedObligation } from "@/lib/obligations/load";
import { compute } from "@/lib/obligations/evaluate";
import { toObligationProjection } from "@/lib/obligations/view";

// Stored list projections (migration 0015): a list answers each obligation with the
// projection text stored for it (table obligation_projections) while that text still holds,
// instead of loading the obligation's parts and evaluating its terms on every read
// (docs/benchmarks.md, step 8).
//
// A stored text holds while
//   - its revision is the obligation's `projection_rev`: a trigger bumps that on every
//     update of the obligation's row, which every change of its conditions, payment terms or
//     context links comes with in the same transaction (docs/architecture.md "Stored
//     projections") — so a text computed before a change is never answered after it;
//   - its format is this code's PROJECTION_FORMAT (bump it with any change to what
//     toObligationProjection writes: every stored text is then stale at once);
//   - today is within [valid_from, valid_until] (the days with the same terms evaluation:
//     compute().stableUntil).
// Texts are written by registration (in its one insert) and by a list that computed them.
export const PROJECTION_FORMAT = 1;

// The stored-projection row of an obligation at revision `o.projectionRev`, for `today`
// (days as "YYYY-MM-DD": the date columns take them as they are).
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
// LIMIT/OFFSET over the organization `params.org`'s obligations), in its order, as JSON text.
// One statement (built once per `shape` of the pick) reads the ids with the stored texts that
// hold today; the others are loaded with their parts, computed, and (on the plain database
// handle, not inside a request's transaction) stored for the next read.
export async function loadProjectionsPicked<P extends { org: string; today: string }>(
  tx: Tx,
  input: { shape: string; pick: (q: Query, p: P) => { compile(): unknown }; params: P },
): Promise<JsonText<TObligationProjection>[]> {
  const { org: organizationId, today } = input.params;
  let picked = pickedStatements.get(input.shape) as Statement<P, { id: string; projection: string | null }> | undefined;
  if (picked === undefined) {
    const pick = input.pick;
    picked = statement((q, p: P) =>
      q
        .selectFrom(pickedWithText(pick(q, p), p.org, p.today))
        .select([raw<string>`x.id::text`.as("id"), raw<string | null>`x.projection`.as("projection")])
        .where(raw<boolean>`x.organization_id = ${p.org}::uuid`)
        .orderBy(raw`picked.n`),
    );
    pickedStatements.set(input.shape, picked as Statement<never, { id: string; projection: string | null }>);
  }
  const rows = await picked.rows(tx, input.params);
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

// `FROM` the picked ids (`picked(id, n)`) and `x`: each obligation looked up by its key as in
// pickedObligations (lib/obligations/load.ts), with its stored text that holds today joined
// inside the look-up. (Joined outside it, PostgreSQL put a Memoize over the texts' index scan
// that copied 50 distinct 1.7 kB rows into its cache for nothing: 0.30 against 0.22 ms a page;
// docs/benchmarks.md "Typed path A/B".) The organization as a value on both tables: their
// keys, and what routes the statement to one shard on Citus.
function pickedWithText(pick: { compile(): unknown }, organizationId: string, today: string) {
  return pickedLookup<{ id: string; organization_id: string; projection: string | null }>(
    pick,
    raw`SELECT o.id, o.organization_id, t.projection FROM obligations o
      LEFT JOIN obligation_projections t ON t.organization_id = ${organizationId}::uuid AND t.obligation_id = o.id
        AND t.rev = o.projection_rev AND t.format = ${PROJECTION_FORMAT} AND t.valid_from <= ${today}::date AND t.valid_until >= ${today}::date
      WHERE o.organization_id = ${organizationId}::uuid AND o.id = picked.id OFFSET 0`,
  ).as("x");
}

const pickedStatements = new Map<string, Statement<never, { id: string; projection: string | null }>>();

// Stores computed projections (a newer revision is never replaced by an older one). A
// failure costs the next read a computation, never the answer.
async function storeProjections(tx: Tx, input: { rows: ReturnType<typeof storedProjectionRow>[] }): Promise<void> {
  try {
    await query(tx)
      .insertInto("obligation_projections")
      .columns(["obligation_id", "organization_id", "rev", "format", "valid_from", "valid_until", "projection"])
      .expression((e) =>
        e
          .selectFrom(raw<ObligationProjection>`json_populate_recordset(NULL::obligation_projections, ${columnsJson(input.rows)}::json)`.as("r"))
          .select(["obligation_id", "organization_id", "rev", "format", "valid_from", "valid_until", "projection"]),
      )
      .onConflict((c) =>
        c
          .columns(["organization_id", "obligation_id"])
          .doUpdateSet((eb) => ({
            rev: eb.ref("excluded.rev"),
            format: eb.ref("excluded.format"),
            valid_from: eb.ref("excluded.valid_from"),
            valid_until: eb.ref("excluded.valid_until"),
            projection: eb.ref("excluded.projection"),
          }))
          .whereRef("obligation_projections.rev", "<=", "excluded.rev"),
      )
      .execute();
  } catch (err) {
    logger().warn({ err: err instanceof Error ? err.message : String(err) }, "storing list projections failed");
  }
}
