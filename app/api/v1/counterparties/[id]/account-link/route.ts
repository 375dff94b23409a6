import { handle } from "@/lib/http/handle";
import { createAccountLinkOp, getAccountLinkOp, revokeAccountLinkOp } from "@/lib/operations/counterparties";
import { createAccountLink } from "@/lib/account-links/create-account-link";
import { getAccountLink } from "@/lib/account-links/get-account-link";
import { revokeAccountLink } from "@/lib/account-links/revoke-account-link";
import { notServed } from "@/lib/http/not-served";

// POST /counterparties/{id}/account-link – make (or reissue) the account link; the URL is shown once
export const POST = handle(createAccountLinkOp, async ({ tx, principal, params }) => ({
  status: 201,
  body: await createAccountLink(tx, { organizationId: principal.organizationId, counterpartyId: params.id }),
}));

// GET /counterparties/{id}/account-link – the current link's state, without its URL
export const GET = handle(getAccountLinkOp, async ({ tx, principal, params }) => ({
  status: 200,
  body: await getAccountLink(tx, { organizationId: principal.organizationId, counterpartyId: params.id }),
}));

// DELETE /counterparties/{id}/account-link – revoke the live account link
export const DELETE = handle(revokeAccountLinkOp, async ({ tx, principal, params }) => {
  await revokeAccountLink(tx, { organizationId: principal.organizationId, counterpartyId: params.id });
  return { status: 204 };
});

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { PUT, PATCH } = notServed("GET", "POST", "DELETE");
