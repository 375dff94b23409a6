import { type RawBuilder, sql as raw } from "kysely";
import { camelCase, camelColumns, type CamelRow, type JsonOf } from "@/lib/db/camel";
import type { Tx } from "@/lib/db/client";
import { statement, type Query, type Statement } from "@/lib/db/query";
import type { BusinessContext, Obligation, ObligationCondition, ObligationContextLink, PaymentRequest, PaymentTerm } from "@/lib/generated/kysely/database";
import type { Principal } from "@/lib/auth/principal";
import { AppError } from "@/lib/errors";
import { isUuid } from "@/lib/ids";

// Loading obligations with everything the wire records need (conditions, payment terms,
// context links with their contexts, the current payment request, the organization's name),
// each in ONE statement: the parts are correlated json_agg subqueries served by their
// (organization_id, obligation_id) indexes (Prisma's include sends one query per relation).
// Rows come with camelCase names (`column as camelName`), typed by the generated row types.

export type ObligationRow = CamelRow<Obligation>;
type Condition = CamelRow<ObligationCondition>;
type Term = CamelRow<PaymentTerm>;
type Link = CamelRow<ObligationContextLink> & { context: CamelRow<BusinessContext> };
type Request = CamelRow<PaymentRequest>;

// organizationName: the issuer's display name (invoice records' issuer_name), read with the row.
export type LoadedObligation = ObligationRow & {
  conditions: Condition[];
  paymentTerms: Term[];
  contextLinks: Link[];
  paymentRequest: Request | null;
  organizationName: string;
};

// Every column of obligations (a missing one fails to compile where the rows become LoadedObligation).
export const OBLIGATION_COLUMNS = [
  "id",
  "organization_id",
  "reference",
  "payment_reference",
  "obligation_type",
  "organization_role",
  "external_namespace",
  "external_id",
  "creditor_name",
  "creditor_email",
  "debtor_name",
  "debtor_email",
  "amount_minor",
  "allocated_minor",
  "currency",
  "deadline",
  "invoice_number",
  "description",
  "label",
  "condition_summary",
  "condition_status",
  "condition_satisfied_on",
  "status",
  "version",
  "acknowledged",
  "expected_payment_date",
  "reported_payment_date",
  "reported_amount_minor",
  "reported_reference",
  "created_at",
  "updated_at",
  "next_scheduled_on",
  "projection_rev",
  "credited_minor",
  "cancelled_at",
  "duplicate_of",
  "dispute_status",
  "dispute_reason",
  "dispute_message",
  "dispute_amount_minor",
  "dispute_opened_at",
  "dispute_resolved_at",
  "dispute_resolution_message",
  "promise_status",
  "promise_date",
  "promise_amount_minor",
  "promise_baseline_minor",
  "promise_made_at",
  "promise_decided_at",
] as const satisfies readonly (keyof Obligation)[];

// ------------------------------------------------------------------ the parts, as JSON

// A part's row inside JSON (bigints cast to text, so no precision is lost), read back by `revive`.
type Json<T> = JsonOf<T>;

// json_build_object of a table's columns under their camelCase names; `asText`: the bigint columns.
function jsonObject<T>(alias: string, columns: readonly (keyof T & string)[], asText: readonly (keyof T & string)[] = []): string {
  return `json_build_object(${columns.map((c) => `'${camelCase(c)}', ${alias}.${c}${asText.includes(c) ? "::text" : ""}`).join(", ")})`;
}

// Every column of each part (the reads below and registration's insert, lib/obligations/register-obligation.ts).
export const CONDITION_COLUMNS = [
  "id",
  "organization_id",
  "obligation_id",
  "position",
  "key",
  "label",
  "external_namespace",
  "external_id",
  "status",
  "satisfied_on",
  "source",
  "evidence_reference",
] as const satisfies readonly (keyof ObligationCondition)[];
export const TERM_COLUMNS = [
  "id",
  "organization_id",
  "obligation_id",
  "sequence",
  "label",
  "amount_type",
  "fixed_amount_minor",
  "percentage_basis_points",
  "trigger_type",
  "trigger_date",
  "condition_id",
  "due_rule",
  "due_date",
  "due_days",
] as const satisfies readonly (keyof PaymentTerm)[];
export const LINK_COLUMNS = [
  "id",
  "organization_id",
  "obligation_id",
  "context_id",
  "relationship_type",
  "attributed_minor",
  "created_at",
] as const satisfies readonly (keyof ObligationContextLink)[];
export const REQUEST_COLUMNS = [
  "id",
  "organization_id",
  "obligation_id",
  "issue_number",
  "token_hash",
  "expires_at",
  "revoked_at",
  "first_opened_at",
  "created_at",
  "updated_at",
  "payer_language",
] as const satisfies readonly (keyof PaymentRequest)[];

const CONDITION_JSON = jsonObject<ObligationCondition>("c", CONDITION_COLUMNS);
const TERM_JSON = jsonObject<PaymentTerm>("t", TERM_COLUMNS, ["fixed_amount_minor"]);
const LINK_JSON = jsonObject<ObligationContextLink>("l", LINK_COLUMNS, ["attributed_minor"]).replace(
  /\)$/,
  `, 'context', ${jsonObject<BusinessContext>("bc", ["id", "organization_id", "type", "kind", "name", "reference", "type_label", "external_namespace", "external_id", "created_at"])})`,
);
const REQUEST_JSON = jsonObject<PaymentRequest>("r", REQUEST_COLUMNS);

type Parts = {
  conditions: Json<Condition>[];
  paymentTerms: Json<Term>[];
  contextLinks: (Json<CamelRow<ObligationContextLink>> & { context: Json<CamelRow<BusinessContext>> })[];
  paymentRequest: Json<Request> | null;
  organizationName: string | null;
};

// The parts of the obligation aliased `o` (of the organization `org`), each a correlated
// subquery. Each names the organization as the value `org`, not as `o.organization_id`:
// PostgreSQL does not carry the outer `o.organization_id = $org` into a correlated subquery,
// and Citus routes a statement to one shard only when every distributed table in it is
// pinned to a value of the distribution column (else it goes to every shard).
const parts = (org: string) => [
  raw<Parts["conditions"]>`(SELECT coalesce(json_agg(${raw.raw(CONDITION_JSON)} ORDER BY c.position), '[]')
    FROM obligation_conditions c WHERE c.organization_id = ${org} AND c.obligation_id = o.id)`.as("conditions"),
  raw<Parts["paymentTerms"]>`(SELECT coalesce(json_agg(${raw.raw(TERM_JSON)} ORDER BY t.sequence), '[]')
    FROM payment_terms t WHERE t.organization_id = ${org} AND t.obligation_id = o.id)`.as("paymentTerms"),
  raw<Parts["contextLinks"]>`(SELECT coalesce(json_agg(${raw.raw(LINK_JSON)} ORDER BY l.created_at, l.id), '[]')
    FROM obligation_context_links l JOIN business_contexts bc ON bc.organization_id = l.organization_id AND bc.id = l.context_id
    WHERE l.organization_id = ${org} AND l.obligation_id = o.id)`.as("contextLinks"),
  raw<Parts["paymentRequest"]>`(SELECT ${raw.raw(REQUEST_JSON)} FROM payment_requests r
    WHERE r.organization_id = ${org} AND r.obligation_id = o.id ORDER BY r.created_at DESC, r.id DESC LIMIT 1)`.as("paymentRequest"),
  raw<string | null>`(SELECT g.name FROM organizations g WHERE g.id = ${org})`.as("organizationName"),
];

const OBLIGATION_SELECT = camelColumns("o", OBLIGATION_COLUMNS);

// A JSON date ("YYYY-MM-DD") or timestamp back to the Date the driver gives for a column.
const jDate = (v: string): Date => new Date(v.length === 10 ? `${v}T00:00:00.000Z` : v);
const jDateOrNull = (v: string | null): Date | null => (v === null ? null : jDate(v));
const jBigOrNull = (v: string | null): bigint | null => (v === null ? null : BigInt(v));

// The selected row with its parts read back from JSON.
function revive(r: ObligationRow & Parts): LoadedObligation {
  const q = r.paymentRequest;
  return {
    ...r,
    conditions: r.conditions.map((c) => ({ ...c, satisfiedOn: jDateOrNull(c.satisfiedOn) })),
    paymentTerms: r.paymentTerms.map((t) => ({
      ...t,
      fixedAmountMinor: jBigOrNull(t.fixedAmountMinor),
      triggerDate: jDateOrNull(t.triggerDate),
      dueDate: jDateOrNull(t.dueDate),
    })),
    contextLinks: r.contextLinks.map((l) => ({
      ...l,
      attributedMinor: jBigOrNull(l.attributedMinor),
      createdAt: jDate(l.createdAt),
      context: { ...l.context, createdAt: jDate(l.context.createdAt) },
    })),
    paymentRequest: q
      ? {
          ...q,
          expiresAt: jDate(q.expiresAt),
          revokedAt: jDateOrNull(q.revokedAt),
          firstOpenedAt: jDateOrNull(q.firstOpenedAt),
          createdAt: jDate(q.createdAt),
          updatedAt: jDate(q.updatedAt),
        }
      : null,
    organizationName: r.organizationName ?? "",
  };
}

// ------------------------------------------------------------------ statements

const byId = statement((q, p: { org: string; id: string }) =>
  q.selectFrom("obligations as o").select(OBLIGATION_SELECT).select(parts(p.org)).where("o.id", "=", p.id).where("o.organization_id", "=", p.org),
);
const byIdOfType = statement((q, p: { org: string; id: string; type: string }) =>
  q
    .selectFrom("obligations as o")
    .select(OBLIGATION_SELECT)
    .select(parts(p.org))
    .where("o.id", "=", p.id)
    .where("o.organization_id", "=", p.org)
    .where("o.obligation_type", "=", p.type),
);
const byIds = statement((q, p: { org: string; ids: string[] }) =>
  q
    .selectFrom("obligations as o")
    .select(OBLIGATION_SELECT)
    .select(parts(p.org))
    .where("o.organization_id", "=", p.org)
    .where(raw<boolean>`o.id = ANY(${p.ids}::uuid[])`),
);

// The statements above and the page's below, for test/obligation-routing.test.ts (EXPLAIN).
export const loadStatements = () => ({ byId, byIdOfType, byIds, page });

// The obligation with conditions, terms, context links (+ contexts) and its current
// payment request. 404 not_found when unknown, malformed, of another organization, or
// (with `obligationType`) of another type.
export type LoadObligationInput = { organizationId: string; obligationId: string; obligationType?: string };

export async function loadObligation(tx: Tx, input: LoadObligationInput): Promise<LoadedObligation> {
  const { organizationId: org, obligationId: id, obligationType: type } = input;
  if (!isUuid(id)) throw notFoundObligation(type);
  const rows = type === undefined ? await byId.rows(tx, { org, id }) : await byIdOfType.rows(tx, { org, id, type });
  if (rows.length !== 1) throw notFoundObligation(type);
  return revive(rows[0]);
}

const notFoundObligation = (type?: string) => new AppError("not_found", `${type === "invoice" ? "invoice" : "obligation"} not found`);

// `FROM` the obligations a page picked (`pick`: SELECT id ... ORDER BY ... LIMIT/OFFSET), as
// `picked(id, n)` and `o`: each looked up by its primary key, whatever the statistics say.
// (As a plain join, a table without statistics yet, such as one just filled by an import,
// got a generic plan that read ALL the organization's obligations and hash-joined the page's
// ids: 10.6 ms instead of 1.3 ms for a page of 50 among 8 290; docs/benchmarks.md, step 15.
// OFFSET 0 keeps the planner from flattening the lateral look-up into such a join. The
// organization in the look-up too: its key, and what routes it to one shard on Citus.) Order by
// `picked.n`.
export function pickedObligations(pick: { compile(): unknown }, organizationId: string) {
  return pickedLookup<Obligation>(pick, raw`SELECT * FROM obligations WHERE organization_id = ${organizationId}::uuid AND id = picked.id OFFSET 0`).as("o");
}

// The frame of pickedObligations with another look-up of `picked.id` (one that ends in OFFSET
// 0 for the same reason): lib/obligations/stored-projection.ts joins the stored text inside it.
export function pickedLookup<R>(pick: { compile(): unknown }, lookup: RawBuilder<unknown>) {
  return raw<R>`unnest(ARRAY(${pick})) WITH ORDINALITY AS picked(id, n)
    CROSS JOIN LATERAL (${lookup})`;
}

// A page of obligations, newest first with a stable order (created_at desc, id desc), with
// their parts, in one statement. The page's ids come first (an index range scan,
// materialized as an array), then their parts: with OFFSET in the same query level as the
// json_agg subqueries, PostgreSQL would build the parts of every skipped row too (seconds
// for a page at offset 10 000).
export type LoadObligationPageInput = { organizationId: string; limit: number; offset: number; obligationType: string };

const page = statement((q, p: { org: string; type: string; limit: number; offset: number }) =>
  q
    .selectFrom(
      pickedObligations(
        q
          .selectFrom("obligations")
          .select("id")
          .where("organization_id", "=", p.org)
          .where("obligation_type", "=", p.type)
          .orderBy("created_at", "desc")
          .orderBy("id", "desc")
          .limit(p.limit)
          .offset(p.offset),
        p.org,
      ),
    )
    .select(OBLIGATION_SELECT)
    .select(parts(p.org))
    .where("o.organization_id", "=", p.org)
    .orderBy(raw`picked.n`),
);

export async function loadObligationPage(tx: Tx, input: LoadObligationPageInput): Promise<LoadedObligation[]> {
  const rows = await page.rows(tx, { org: input.organizationId, type: input.obligationType, limit: input.limit, offset: input.offset });
  return rows.map(revive);
}

// The obligations with these ids (of this organization), in the order of `ids`.
export async function loadObligationsByIds(tx: Tx, input: { organizationId: string; ids: string[] }): Promise<LoadedObligation[]> {
  const { organizationId, ids } = input;
  if (ids.length === 0) return [];
  const rows = await byIds.rows(tx, { org: organizationId, ids });
  const found = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const r = found.get(id);
    return r ? [revive(r)] : [];
  });
}

// Column changes of an obligation (model field names, camelCase): a value or `{ increment: n }`.
export type ObligationSet = {
  [K in keyof ObligationRow]?: ObligationRow[K] | (ObligationRow[K] extends bigint | number ? { increment: ObligationRow[K] } : never);
};

// The obligation after writing `set` to its row, in ONE statement: the UPDATE's RETURNING row
// with its parts (which earlier statements of the transaction may have changed). One
// statement per shape of `set` (its fields, value or increment), built once. Only for an
// obligation the caller has locked and knows to exist (mutateObligation).
export async function loadObligationUpdated(tx: Tx, input: { organizationId: string; obligationId: string; set: ObligationSet }): Promise<LoadedObligation> {
  const { organizationId, obligationId, set } = input;
  if (Object.keys(set).length === 0) return loadObligation(tx, { organizationId, obligationId });
  const { statement: s, values } = obligationUpdate(input);
  const rows = await s.rows(tx, values);
  if (rows.length !== 1) throw notFoundObligation();
  return revive(rows[0]);
}

// The statement of loadObligationUpdated for the shape of `set` (built once) with its values.
export function obligationUpdate(input: { organizationId: string; obligationId: string; set: ObligationSet }): {
  statement: Updated;
  values: Record<string, unknown>;
} {
  const { organizationId, obligationId, set } = input;
  const fields = Object.keys(set) as (keyof ObligationSet)[];
  const values: Record<string, unknown> = { org: organizationId, id: obligationId };
  let shape = "";
  const increments: boolean[] = [];
  for (const f of fields) {
    const v = set[f];
    const increment = v !== null && typeof v === "object" && !(v instanceof Date);
    increments.push(increment);
    shape += `${f}${increment ? "+" : "="},`;
    const value = increment ? (v as { increment: unknown }).increment : v;
    // Dates as ISO text: a date column takes its day, a timestamptz its instant (whatever the process's time zone).
    values[f] = value instanceof Date ? value.toISOString() : value;
  }
  let s = updates.get(shape);
  if (s === undefined) {
    s = updateStatement(fields, increments);
    updates.set(shape, s);
  }
  return { statement: s, values };
}

type Updated = Statement<Record<string, unknown>, ObligationRow & Parts>;
const updates = new Map<string, Updated>();

function updateStatement(fields: string[], increments: boolean[]): Updated {
  const column = (f: string) => f.replace(/[A-Z]/g, (x) => `_${x.toLowerCase()}`) as keyof Obligation & string;
  for (const f of fields) {
    if (!(OBLIGATION_COLUMNS as readonly string[]).includes(column(f))) throw new Error(`loadObligationUpdated: not a column: ${f}`);
  }
  // The row is the UPDATE's (`u`); the parts hang off `o`, the same obligation read by its key
  // with the organization named: Citus routes a statement only when every distributed table
  // in it names the organization, and refuses subqueries correlated to a writing CTE's rows.
  return statement((q: Query, p: Record<string, unknown>) =>
    q
      .with("u", (w) =>
        w
          .updateTable("obligations as o")
          .set((eb) => Object.fromEntries(fields.map((f, i) => [column(f), increments[i] ? eb(`o.${column(f)}`, "+", p[f] as bigint) : eb.val(p[f])])))
          .where("o.id", "=", p.id as string)
          .where("o.organization_id", "=", p.org as string)
          .returningAll(),
      )
      .selectFrom("u")
      .innerJoin("obligations as o", (j) => j.on("o.organization_id", "=", p.org as string).onRef("o.id", "=", "u.id"))
      .select(camelColumns("u", OBLIGATION_COLUMNS))
      .select(parts(p.org as string)),
  ) as unknown as Updated;
}

// The name of an organization (read when the caller does not already know it).
export async function organizationName(tx: Tx, input: { organizationId: string }): Promise<string> {
  const org = await tx.organization.findUnique({ where: { id: input.organizationId }, select: { name: true } });
  return org?.name ?? "";
}

// The organization's name as the caller already knows it (an API key or a session carries
// it), else read.
export async function organizationNameFor(tx: Tx, input: { principal: Principal; organizationId: string }): Promise<string> {
  const { principal: p, organizationId } = input;
  if ((p.kind === "api_key" || p.kind === "user") && p.organizationId === organizationId) return p.organizationName;
  return organizationName(tx, { organizationId });
}

// The columns of an obligation as one line of a short list (the allocation form's open
// obligations, the overview's most overdue): who, what, how much, by when.
export const OBLIGATION_LINE_SELECT = {
  id: true,
  reference: true,
  organizationRole: true,
  debtorName: true,
  creditorName: true,
  invoiceNumber: true,
  currency: true,
  amountMinor: true,
  allocatedMinor: true,
  deadline: true,
} as const;
