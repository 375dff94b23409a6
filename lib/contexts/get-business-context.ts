import type { Tx } from "@/lib/db";
import { notFound } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { DETAIL_OBLIGATION_LIMIT, DETAIL_RELATIONSHIP_LIMIT, OBLIGATION_STATUSES, type ContextKind, type ContextType } from "@/lib/schemas/contexts";
import { contextSummary, contextView } from "@/lib/contexts/view";

type RelationshipRow = {
  id: string;
  relationship_type: string;
  direction: "outgoing" | "incoming";
  created_at: Date;
  related_id: string;
  related_type: string;
  related_kind: string;
  related_type_label: string;
  related_name: string;
  related_reference: string;
};

type ObligationRow = {
  id: string;
  reference: string;
  status: string;
  amount_minor: bigint;
  allocated_minor: bigint;
  currency: string;
  relationship_type: string;
  attributed_minor: bigint | null;
  link_id: string;
  linked_at: Date;
};

type TotalRow = { currency: string; status: string; obligation_count: number; amount_minor: string; allocated_minor: string; attributed_minor: string };

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

  // Sequential on purpose: `tx` may be an interactive transaction (one connection).
  const relationships = await tx.$queryRaw<RelationshipRow[]>`
      SELECT r.id, r.relationship_type, r.direction, r.created_at,
             c.id AS related_id, c.type AS related_type, c.kind AS related_kind, c.type_label AS related_type_label,
             c.name AS related_name, c.reference AS related_reference
      FROM (
        SELECT id, relationship_type, 'outgoing' AS direction, to_context_id AS related_id, created_at
        FROM context_relationships WHERE organization_id = ${organizationId}::uuid AND from_context_id = ${id}::uuid
        UNION ALL
        SELECT id, relationship_type, 'incoming' AS direction, from_context_id AS related_id, created_at
        FROM context_relationships WHERE organization_id = ${organizationId}::uuid AND to_context_id = ${id}::uuid
      ) r
      JOIN business_contexts c ON c.id = r.related_id AND c.organization_id = ${organizationId}::uuid
      ORDER BY r.created_at DESC, r.id DESC
      LIMIT ${DETAIL_RELATIONSHIP_LIMIT}`;
  const relCount = await tx.contextRelationship.count({ where: { organizationId, OR: [{ fromContextId: id }, { toContextId: id }] } });
  const obligations = await tx.$queryRaw<ObligationRow[]>`
      SELECT o.id, o.reference, o.status, o.amount_minor, o.allocated_minor, o.currency,
             l.relationship_type, l.attributed_minor, l.id AS link_id, l.created_at AS linked_at
      FROM obligation_context_links l
      JOIN obligations o ON o.id = l.obligation_id AND o.organization_id = l.organization_id
      WHERE l.organization_id = ${organizationId}::uuid AND l.context_id = ${id}::uuid
      ORDER BY l.created_at DESC, l.id DESC
      LIMIT ${DETAIL_OBLIGATION_LIMIT}`;
  const totals = await tx.$queryRaw<TotalRow[]>`
      SELECT o.currency, o.status, count(*)::int AS obligation_count,
             sum(o.amount_minor)::text AS amount_minor, sum(o.allocated_minor)::text AS allocated_minor,
             coalesce(sum(l.attributed_minor), 0)::text AS attributed_minor
      FROM obligation_context_links l
      JOIN obligations o ON o.id = l.obligation_id AND o.organization_id = l.organization_id
      WHERE l.organization_id = ${organizationId}::uuid AND l.context_id = ${id}::uuid
      GROUP BY o.currency, o.status`;

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
