import type { Tx } from "@/lib/db/client";
import type { Principal } from "@/lib/auth/principal";
import { toDate, todayUtc } from "@/lib/schemas/common";
import type { TMutationResult, TSatisfyCondition } from "@/lib/schemas/obligations";
import { invalidState, mutateObligation } from "@/lib/obligations/mutate-obligation";
import { waitingCondition } from "@/lib/obligations/apply-issuer-action";

// POST /obligations/{id}/conditions/{condition}/satisfy: records the accepted evidence on
// the condition (satisfied_on defaults to today, UTC); payable_minor, due_minor and the
// terms' payable_on follow from it on every read. Event obligation.condition_satisfied.
export type SatisfyConditionInput = { organizationId: string; obligationId: string; conditionId: string; principal: Principal; body: TSatisfyCondition };

export async function satisfyCondition(tx: Tx, input: SatisfyConditionInput): Promise<TMutationResult> {
  const satisfiedOn = input.body.satisfied_on ?? todayUtc();
  let key = "";
  return mutateObligation(tx, {
    organizationId: input.organizationId,
    obligationId: input.obligationId,
    expectedVersion: input.body.expected_version,
    principal: input.principal,
    eventType: "obligation.condition_satisfied",
    apply: async (o) => {
      const c = waitingCondition(o, input.conditionId);
      key = c.key;
      const n = await tx.obligationCondition.updateMany({
        where: { id: c.id, organizationId: o.organizationId, obligationId: o.id, status: "waiting" },
        data: {
          status: "satisfied",
          satisfiedOn: toDate(satisfiedOn),
          ...(input.body.source !== undefined ? { source: input.body.source } : {}),
          ...(input.body.evidence_reference !== undefined ? { evidenceReference: input.body.evidence_reference } : {}),
        },
      });
      if (n.count !== 1) throw invalidState("the condition is no longer waiting");
    },
    detail: () => ({
      condition_id: input.conditionId,
      key,
      satisfied_on: satisfiedOn,
      evidence_reference: input.body.evidence_reference ?? "",
      source: input.body.source ?? "",
    }),
  });
}
