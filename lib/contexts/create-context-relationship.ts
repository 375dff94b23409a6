import type { Tx } from "@/lib/db/client";
import { query } from "@/lib/db/query";
import { AppError, notFound } from "@/lib/errors";
import { newId } from "@/lib/ids";
import type { TContextRelationship, TCreateContextRelationship } from "@/lib/schemas/contexts";
import { contextSummary } from "@/lib/contexts/view";

// POST /business-contexts/{id}/relationships: any context to any other context of the
// same organization. No hierarchy: cycles are allowed. Self-relationships are refused
// (also by a CHECK constraint), duplicates (same source, target and type) are 409 —
// decided by the unique constraint, so two concurrent requests cannot both insert.
export type CreateContextRelationshipInput = { organizationId: string; contextId: string; body: TCreateContextRelationship };

export async function createContextRelationship(tx: Tx, input: CreateContextRelationshipInput): Promise<TContextRelationship> {
  const { organizationId, contextId, body } = input;
  const context = await tx.businessContext.findFirst({ where: { id: contextId, organizationId }, select: { id: true } });
  if (!context) throw notFound("business context");
  if (body.related_context_id.toLowerCase() === contextId.toLowerCase()) {
    throw new AppError("validation_failed", "body.related_context_id: a context cannot be related to itself");
  }
  const related = await tx.businessContext.findFirst({ where: { id: body.related_context_id, organizationId } });
  if (!related) {
    throw new AppError("validation_failed", "body.related_context_id: no business context with this id exists in this organization");
  }
  const id = newId();
  const inserted = await query(tx)
    .insertInto("context_relationships")
    .values({ id, organization_id: organizationId, from_context_id: context.id, to_context_id: related.id, relationship_type: body.relationship_type })
    .onConflict((c) => c.columns(["organization_id", "from_context_id", "to_context_id", "relationship_type"]).doNothing())
    .returning("created_at")
    .execute();
  if (inserted.length === 0) {
    throw new AppError("duplicate", `this context already has a "${body.relationship_type}" relationship to the related context`);
  }
  return {
    id,
    context_id: context.id,
    related_context_id: related.id,
    relationship_type: body.relationship_type,
    direction: "outgoing" as const,
    related_context: contextSummary(related),
    created_at: inserted[0].created_at.toISOString(),
  };
}
