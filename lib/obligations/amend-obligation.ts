import type { Tx } from "@/lib/db/client";
import type { Principal } from "@/lib/auth/principal";
import { AppError } from "@/lib/errors";
import { fromDate, toDate } from "@/lib/schemas/common";
import type { TIssuerAction, TMutationResult } from "@/lib/schemas/obligations";
import { checkTerms, resolveTerms, termRows } from "@/lib/obligations/term-input";
import { invalidState, mutateObligation, type ObligationChanges } from "@/lib/obligations/mutate-obligation";
import { termSpecOf } from "@/lib/obligations/evaluate";
import { toObligationProjection } from "@/lib/obligations/view";

type AmendAction = Extract<TIssuerAction, { action: "amend" }>;
export type AmendObligationInput = { organizationId: string; obligationId: string; principal: Principal; action: AmendAction; obligationType?: string };

type Change = { from: unknown; to: unknown };

// Action `amend` (docs/obligations.md, Lifecycle): corrects an obligation while nothing is settled
// (allocated_minor 0, else 409 invalid_state). New payment_terms replace the old ones and
// are validated as at registration (condition references resolve against the obligation's
// conditions, by key or id); a new amount alone recalculates the existing terms, which must
// still add up (422 payment_terms_mismatch). Event `obligation.amended` with
// data.changes { field: { from, to } } for every field whose value changed.
export async function amendObligation(tx: Tx, input: AmendObligationInput): Promise<TMutationResult> {
  const { action } = input;
  const changes: Record<string, Change> = {};
  return mutateObligation(tx, {
    organizationId: input.organizationId,
    obligationId: input.obligationId,
    expectedVersion: action.expected_version,
    principal: input.principal,
    obligationType: input.obligationType,
    eventType: "obligation.amended",
    apply: async (o) => {
      if (o.allocatedMinor !== 0n) {
        throw invalidState(
          `an obligation is corrected only while nothing is settled (allocated_minor is ${o.allocatedMinor}); reverse its allocations and credits first`,
        );
      }
      const given = Object.keys(action).filter((k) => k !== "action" && k !== "expected_version");
      if (given.length === 0) throw new AppError("validation_failed", "body: name at least one field to correct");
      const set: ObligationChanges = {};
      const put = (field: string, from: unknown, to: unknown) => {
        if (JSON.stringify(from) !== JSON.stringify(to)) changes[field] = { from, to };
      };
      const amount = action.amount_minor !== undefined ? BigInt(action.amount_minor) : o.amountMinor;
      if (action.amount_minor !== undefined) {
        put("amount_minor", o.amountMinor.toString(), action.amount_minor);
        set.amountMinor = amount;
      }
      if (action.deadline !== undefined) {
        put("deadline", fromDate(o.deadline), action.deadline);
        set.deadline = toDate(action.deadline);
      }
      for (const role of ["debtor", "creditor"] as const) {
        const party = action[role];
        if (!party) continue;
        const name = role === "debtor" ? o.debtorName : o.creditorName;
        const email = role === "debtor" ? o.debtorEmail : o.creditorEmail;
        put(role, { name, email }, { name: party.name, email: party.email ?? "" });
        if (role === "debtor") Object.assign(set, { debtorName: party.name, debtorEmail: party.email ?? "" });
        else Object.assign(set, { creditorName: party.name, creditorEmail: party.email ?? "" });
      }
      if (action.label !== undefined) {
        put("label", o.label, action.label);
        set.label = action.label;
      }
      if (action.business_context) {
        const bc = action.business_context;
        put(
          "business_context",
          { invoice_number: o.invoiceNumber, description: o.description },
          { invoice_number: bc.invoice_number, description: bc.description ?? "" },
        );
        set.invoiceNumber = bc.invoice_number;
        set.description = bc.description ?? "";
      }
      if (action.payment_terms !== undefined || amount !== o.amountMinor) {
        const terms = action.payment_terms
          ? resolveTerms(action.payment_terms, {
              byKey: (key) => o.conditions.find((c) => c.key === key)?.id,
              byId: (id) => o.conditions.find((c) => c.id === id)?.id,
              unknown: "references a condition this obligation does not have",
            })
          : o.paymentTerms.map((t) => ({ spec: termSpecOf(t), label: t.label }));
        checkTerms(amount, terms, new Set(o.conditions.map((c) => c.id)), action.payment_terms !== undefined);
        if (action.payment_terms) {
          changes.payment_terms = { from: toObligationProjection(o).payment_terms, to: null };
          await tx.paymentTerm.deleteMany({ where: { organizationId: o.organizationId, obligationId: o.id } });
          if (terms.length) await tx.paymentTerm.createMany({ data: termRows(o.organizationId, o.id, terms) });
        }
      }
      return set;
    },
    eventData: (after) => {
      if (changes.payment_terms) changes.payment_terms.to = toObligationProjection(after).payment_terms;
      return { changes };
    },
    detail: () => ({ fields: Object.keys(changes) }),
  });
}
