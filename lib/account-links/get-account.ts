import type { Tx } from "@/lib/db/client";
import type { RecipientPrincipal } from "@/lib/auth/principal";
import { groupCounterparties } from "@/lib/counterparties/group-counterparties";
import { accountObligationPrincipal } from "@/lib/account-links/account-obligation";
import { getRecipientInvoice } from "@/lib/recipients/get-recipient-invoice";

// GET /recipient/accounts/{account}: the counterparty and the recipient invoice of each of its
// open obligations (oldest first), also those registered after the link was made.
export async function getAccount(tx: Tx, input: { principal: RecipientPrincipal }) {
  const p = input.principal;
  const [cp] = await groupCounterparties(tx, { organizationId: p.organizationId, only: p.counterpartyId });
  const obligations = [];
  for (const o of cp?.obligations ?? []) {
    obligations.push(await getRecipientInvoice(tx, { principal: await accountObligationPrincipal(tx, p, o.id) }));
  }
  return { counterparty: { name: cp?.name ?? "", email: cp?.email ?? null }, obligations };
}
