import type { Tx } from "@/lib/db/client";
import { query } from "@/lib/db/query";
import type { Principal } from "@/lib/auth/principal";
import { AppError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { mutateObligation } from "@/lib/obligations/mutate-obligation";
import { DEFAULT_LINK_RELATIONSHIP_TYPE, type TCreateObligationContextLink, type TObligationContextLink } from "@/lib/schemas/contexts";

// POST /obligations/{id}/business-contexts: attaches a business context to an obligation
// (an obligation mutation: expected_version, version + 1, event obligation.context_linked).
// The attributed amounts of one obligation never exceed its amount: the sum is checked
// while holding the obligation's row lock, so concurrent links are serialized.
export type LinkObligationContextInput = { organizationId: string; obligationId: string; principal: Principal; body: TCreateObligationContextLink };

export async function linkObligationContext(tx: Tx, input: LinkObligationContextInput): Promise<TObligationContextLink> {
  const { organizationId, obligationId, body } = input;
  const relationshipType = body.relationship_type ?? DEFAULT_LINK_RELATIONSHIP_TYPE;
  const attributed = body.attributed_minor !== undefined ? BigInt(body.attributed_minor) : null;
  const linkId = newId();
  const createdAt = new Date();

  const result = await mutateObligation(tx, {
    organizationId,
    obligationId,
    expectedVersion: body.expected_version,
    principal: input.principal,
    eventType: "obligation.context_linked",
    apply: async (o) => {
      await query(tx).selectFrom("obligations").select("id").where("id", "=", o.id).where("organization_id", "=", organizationId).forUpdate().execute();
      const context = await tx.businessContext.findFirst({ where: { id: body.context_id, organizationId }, select: { id: true } });
      if (!context) throw new AppError("validation_failed", "body.context_id: no business context with this id exists in this organization");
      const existing = await tx.obligationContextLink.findFirst({ where: { organizationId, obligationId: o.id, contextId: context.id }, select: { id: true } });
      if (existing) throw new AppError("duplicate", "this business context is already linked to the obligation");
      if (attributed !== null) {
        const sum = await tx.obligationContextLink.aggregate({ where: { organizationId, obligationId: o.id }, _sum: { attributedMinor: true } });
        const already = sum._sum.attributedMinor ?? 0n;
        if (already + attributed > o.amountMinor) {
          const remaining = o.amountMinor - already;
          throw new AppError(
            "validation_failed",
            `body.attributed_minor: the attributed amounts of this obligation would exceed its amount_minor ${o.amountMinor} ${o.currency}; at most ${remaining} can still be attributed`,
          );
        }
      }
      await tx.obligationContextLink.create({
        data: { id: linkId, organizationId, obligationId: o.id, contextId: context.id, relationshipType, attributedMinor: attributed, createdAt },
      });
    },
    detail: { link_id: linkId, context_id: body.context_id, relationship_type: relationshipType, attributed_minor: body.attributed_minor ?? "" },
  });

  const obligation = result.obligation;
  if (!obligation) throw new Error("the link's mutation returned no obligation");
  const context = obligation.contexts.find((c) => c.id.toLowerCase() === body.context_id.toLowerCase());
  if (!context) throw new Error("linked context missing from the obligation projection");
  return {
    id: linkId,
    obligation_id: obligation.id,
    context_id: context.id,
    relationship_type: relationshipType,
    ...(attributed !== null ? { attributed_minor: attributed.toString() } : {}),
    currency: obligation.currency,
    created_at: createdAt.toISOString(),
    context,
    obligation,
    version: obligation.version,
    operation_id: result.operation_id,
    event_type: "obligation.context_linked",
  };
}
