import type { Tx } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import type { RecipientPrincipal } from "@/lib/auth/principal";
import { counterpartyKey } from "@/lib/counterparties/counterparty-key";

// The principal through which the account acts on one of its obligations: the obligation
// must be a creditor-role obligation of the account's counterparty (else 404, as any id the
// link does not grant) and have a hosted payment request (the recipient code reads it).
export async function accountObligationPrincipal(tx: Tx, principal: RecipientPrincipal, obligationId: string): Promise<RecipientPrincipal> {
  const notFound = () => new AppError("not_found", "obligation not found");
  const o = await tx.obligation.findFirst({
    where: { id: obligationId, organizationId: principal.organizationId, organizationRole: "creditor" },
    select: { id: true, debtorEmail: true, debtorName: true, paymentRequests: { select: { id: true }, orderBy: { createdAt: "desc" }, take: 1 } },
  });
  if (!o || counterpartyKey(principal.organizationId, o.debtorEmail, o.debtorName)?.id !== principal.counterpartyId) throw notFound();
  const pr = o.paymentRequests[0];
  if (!pr) throw notFound();
  return { ...principal, paymentRequestId: pr.id, obligationId: o.id };
}
