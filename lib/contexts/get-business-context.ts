import { sql as raw } from "kysely";
import type { Tx } from "@/lib/db/client";
import { query } from "@/lib/db/query";
import { notFound } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { DETAIL_OBLIGATION_LIMIT, DETAIL_RELATIONSHIP_LIMIT, OBLIGATION_STATUSES, type ContextKind, type ContextType } from "@/lib/schemas/contexts";
import { contextSummary, contextView } from "@/lib/contexts/view";

// GET /business-contexts/{id}: the context, its relationships in both directions, the
// obligations linked to it and their totals. One query per kind of thing (no graph walk),
// so relationship cycles can never make a read loop.
export type GetBusinessContextInput = { organizationId: string; contextId: string };

// the shape of TBusinessContextDetail (lib/schemas/contexts.ts); status and currency come from the database as plain strings
export async function getBusinessContext(tx: Tx, input: GetBusinessContextInput) {
  const { organizationId, contextId: id } = input;
  // A malformed id is unknown, as in the other detail reads (lib/payments/view.ts): the
  // API validates it (ZIdParams), a dashboard page passes the path segment as it came, and
  // PostgreSQL would refuse it (22P02, a 500).
  if (!isUuid(id)) throw notFound("business context");
  const context = await tx.businessContext.findFirst({ where: { id, organizationId } });
  if (!context) throw notFound("business context");

  // Sequential on purpose: `tx` may be a transaction (one connection).
  const k = query(tx);
  const edges = (direction: "outgoing" | "incoming") =>
    k
      .selectFrom("context_relationships")
      .select([
        "id",
        "relationship_type",
        "created_at",
        raw<"outgoing" | "incoming">`${direction}::text`.as("direction"),
        direction === "outgoing" ? "to_context_id as related_id" : "from_context_id as related_id",
      ])
      .where("organization_id", "=", organizationId)
      .where(direction === "outgoing" ? "from_context_id" : "to_context_id", "=", id);
  const relationships = await k
    .selectFrom(edges("outgoing").unionAll(edges("incoming")).as("r"))
    .innerJoin("business_contexts as c", (j) => j.onRef("c.id", "=", "r.related_id").on("c.organization_id", "=", organizationId))
    .select([
      "r.id",
      "r.relationship_type",
      "r.direction",
      "r.created_at",
      "c.id as related_id",
      "c.type as related_type",
      "c.kind as related_kind",
      "c.type_label as related_type_label",
      "c.name as related_name",
      "c.reference as related_reference",
    ])
    .orderBy("r.created_at", "desc")
    .orderBy("r.id", "desc")
    .limit(DETAIL_RELATIONSHIP_LIMIT)
    .execute();
  const relCount = await tx.contextRelationship.count({ where: { organizationId, OR: [{ fromContextId: id }, { toContextId: id }] } });
  const linked = k
    .selectFrom("obligation_context_links as l")
    .innerJoin("obligations as o", (j) => j.onRef("o.id", "=", "l.obligation_id").onRef("o.organization_id", "=", "l.organization_id"))
    .where("l.organization_id", "=", organizationId)
    .where("l.context_id", "=", id);
  const obligations = await linked
    .select([
      "o.id",
      "o.reference",
      "o.status",
      "o.amount_minor",
      "o.allocated_minor",
      "o.currency",
      "l.relationship_type",
      "l.attributed_minor",
      "l.id as link_id",
      "l.created_at as linked_at",
    ])
    .orderBy("l.created_at", "desc")
    .orderBy("l.id", "desc")
    .limit(DETAIL_OBLIGATION_LIMIT)
    .execute();
  const totals = await linked
    .select([
      "o.currency",
      "o.status",
      raw<number>`count(*)::int`.as("obligation_count"),
      raw<string>`sum(o.amount_minor)::text`.as("amount_minor"),
      raw<string>`sum(o.allocated_minor)::text`.as("allocated_minor"),
      raw<string>`coalesce(sum(l.attributed_minor), 0)::text`.as("attributed_minor"),
    ])
    .groupBy(["o.currency", "o.status"])
    .execute();

  const statusOrder = (s: string) => (OBLIGATION_STATUSES as readonly string[]).indexOf(s);
  totals.sort((a, b) => (a.currency === b.currency ? statusOrder(a.status) - statusOrder(b.status) : a.currency < b.currency ? -1 : 1));

  return {
    ...contextView(context),
    relationships: relationships.map((r) => ({
      id: r.id,
      relationship_type: r.relationship_type,
      direction: r.direction,
      related_context: contextSummary({
        id: r.related_id,
        type: r.related_type as ContextType,
        kind: r.related_kind as ContextKind,
        typeLabel: r.related_type_label,
        name: r.related_name,
        reference: r.related_reference,
      }),
      created_at: r.created_at.toISOString(),
    })),
    relationship_count: relCount,
    obligations: obligations.map((o) => ({
      id: o.id,
      reference: o.reference,
      status: o.status,
      amount_minor: o.amount_minor.toString(),
      allocated_minor: o.allocated_minor.toString(),
      currency: o.currency,
      relationship_type: o.relationship_type,
      ...(o.attributed_minor !== null ? { attributed_minor: o.attributed_minor.toString() } : {}),
      link_id: o.link_id,
      linked_at: o.linked_at.toISOString(),
    })),
    obligation_count: totals.reduce((n, t) => n + t.obligation_count, 0),
    totals: totals.map((t) => ({ ...t })),
  };
}
