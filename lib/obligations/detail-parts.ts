import { type Expression, type ExpressionBuilder, type Selectable, type SqlBool, sql as raw } from "kysely";
import { jsonAgg, jsonRow, rowsJson } from "@/lib/db/json";
import type { JsonOf } from "@/lib/db/camel";
import type { Tx } from "@/lib/db/client";
import { type Query, statement } from "@/lib/db/query";
import { AppError } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import type { DB, Document } from "@/lib/generated/kysely/database";

// The parts of an obligation's detail read with it as JSON (issuer detail: get-obligation-detail.ts;
// the payer's invoice: lib/recipients/get-recipient-invoice.ts), the audit trail and the message
// thread with their paging statement (list-audit-trail.ts, list-obligation-messages.ts), and
// their wire items. Every part names the organization and the obligation: the parts' (organization_id,
// obligation_id) index, and one shard on Citus.

// How many of the most recent messages and audit entries a detail (issuer and payer) holds;
// earlier ones are paged through GET /obligations/{id}/messages, /audit-trail and the
// recipient's /messages (docs/security.md, "Bounds"). `messages_total` / `audit_trail_total`
// say how many there are in all.
export const DETAIL_RECENT_LIMIT = 100;

// The obligation whose parts are read.
export type PartsOf = { org: string; id: string };

// The obligation's events and messages, newest first: a detail takes the most recent
// (recentJson), the paging endpoints a page (pageReader).
export const eventsNewestFirst = (q: Query, p: PartsOf) =>
  q
    .selectFrom("events as e")
    .select(["e.id", "e.type", "e.actor_type", "e.actor_id", "e.actor_label", "e.created_at", raw<unknown>`e.data->'detail'`.as("detail")])
    .where("e.organization_id", "=", p.org)
    .where("e.obligation_id", "=", p.id)
    .orderBy("e.created_at", "desc")
    .orderBy("e.id", "desc");

export const messagesNewestFirst = (q: Query, p: PartsOf) =>
  q
    .selectFrom("obligation_messages as m")
    .select(["m.id", "m.author_type", "m.author_name", "m.body", "m.created_at"])
    .where("m.organization_id", "=", p.org)
    .where("m.obligation_id", "=", p.id)
    .orderBy("m.created_at", "desc")
    .orderBy("m.id", "desc");

type Ordered = { created_at: unknown; id: unknown };
// A newest-first query that takes a limit and an offset (the two above).
type NewestFirst<O> = Expression<O> & { limit(limit: number): Expression<O> & { offset(offset: number): Expression<O> } };

// The most recent DETAIL_RECENT_LIMIT rows of `newestFirst`, oldest first, as a JSON array.
export const recentJson = <O extends Ordered>(newestFirst: NewestFirst<O>) => rowsJson(newestFirst.limit(DETAIL_RECENT_LIMIT), "oldest first");

// A paging endpoint of `newestFirst`: one page (`limit` rows from `offset`), newest first, as
// wire `items`, in one statement with whether the obligation is one of the organization's
// (else 404 not_found).
export type PageInput = { organizationId: string; obligationId: string; limit: number; offset: number };

export function pageReader<O extends Ordered, I>(newestFirst: (q: Query, p: PartsOf) => NewestFirst<O>, items: (rows: JsonOf<O>[]) => I[]) {
  const page = statement((q, p: PartsOf & { limit: number; offset: number }) =>
    q.selectNoFrom((eb) => [
      eb.exists(q.selectFrom("obligations as o").select(eb.lit(1).as("one")).where("o.organization_id", "=", p.org).where("o.id", "=", p.id)).as("found"),
      rowsJson(newestFirst(q, p).limit(p.limit).offset(p.offset), "newest first").as("items"),
    ]),
  );
  return async (tx: Tx, input: PageInput) => {
    const { organizationId, obligationId, limit, offset } = input;
    const [r] = isUuid(obligationId) ? await page.rows(tx, { org: organizationId, id: obligationId, limit, offset }) : [];
    if (!r?.found) throw new AppError("not_found", "obligation not found");
    return { items: items(r.items), limit, offset };
  };
}

// The documents `visible` lets through (all without it), oldest first. `d` is the document.
export type DocumentCondition = (eb: ExpressionBuilder<DB & { d: Document }, "d">) => Expression<SqlBool>;

const DOCUMENT_COLUMNS = [
  "id",
  "kind",
  "filename",
  "content_type",
  "size_bytes",
  "sha256",
  "uploaded_by",
  "created_at",
] as const satisfies readonly (keyof Document)[];

function documentsJson(q: Query, p: PartsOf, visible?: DocumentCondition) {
  const all = q
    .selectFrom("documents as d")
    .select((eb) =>
      jsonAgg(jsonRow<Document, (typeof DOCUMENT_COLUMNS)[number]>("d", DOCUMENT_COLUMNS), eb.ref("d.created_at"), eb.ref("d.id")).as("documents"),
    )
    .where("d.organization_id", "=", p.org)
    .where("d.obligation_id", "=", p.id);
  return (visible ? all.where(visible) : all).$asScalar();
}

// The obligation's messages in all.
const messagesTotal = (q: Query, p: PartsOf) =>
  q
    .selectFrom("obligation_messages as t")
    .select(raw<number>`count(*)::int`.as("n"))
    .where("t.organization_id", "=", p.org)
    .where("t.obligation_id", "=", p.id)
    .$asScalar();

// The parts the issuer's detail and the payer's invoice share: the documents (those `visible`
// lets through), the most recent messages and how many there are in all.
export const sharedParts = (q: Query, p: PartsOf, visible?: DocumentCondition) =>
  [documentsJson(q, p, visible).as("documents"), recentJson(messagesNewestFirst(q, p)).as("messages"), messagesTotal(q, p).as("messages_total")] as const;

// ------------------------------------------------------------------ wire items

// The JSON rows of the parts above (lib/db/camel.ts JsonOf: timestamps as text).
type Row<F extends (q: Query, p: PartsOf) => Expression<unknown>> = ReturnType<F> extends Expression<infer O> ? JsonOf<O> : never;
type EventJson = Row<typeof eventsNewestFirst>;
type MessageJson = Row<typeof messagesNewestFirst>;
type DocumentJson = JsonOf<Pick<Selectable<Document>, (typeof DOCUMENT_COLUMNS)[number]>>;

// A timestamp from JSON ("…+00:00") as the API writes it (toISOString).
const iso = (v: string) => new Date(v).toISOString();

export const auditItems = (events: EventJson[]) =>
  events.map((e) => ({
    id: e.id,
    event_type: e.type,
    actor: { type: e.actor_type as "api_key" | "user" | "recipient" | "system", id: e.actor_id, label: e.actor_label },
    created_at: iso(e.created_at),
    detail: e.detail && typeof e.detail === "object" && !Array.isArray(e.detail) ? (e.detail as Record<string, unknown>) : {},
  }));

export const documentItems = (rows: DocumentJson[]) =>
  rows.map((d) => ({
    id: d.id,
    kind: d.kind as "invoice" | "supporting" | "payment_evidence" | "bank_observation",
    filename: d.filename,
    content_type: d.content_type,
    size_bytes: d.size_bytes,
    sha256: d.sha256,
    uploaded_by: d.uploaded_by as "issuer" | "recipient",
    created_at: iso(d.created_at),
  }));

export const messageItems = (rows: MessageJson[]) =>
  rows.map((m) => ({
    id: m.id,
    author_type: m.author_type as "issuer" | "recipient",
    author_name: m.author_name,
    body: m.body,
    created_at: iso(m.created_at),
  }));
