import { defineOperation } from "@/lib/http/operation";
import { ZIdParams } from "@/lib/schemas/common";
import { ZAccountLink, ZAccountLinkState, ZCounterpartyDetail, ZCounterpartyList, ZCounterpartyListQuery } from "@/lib/schemas/counterparties";

const tags = ["Counterparties"];
const CP = "5b0f3c2e-8a41-5d7e-9c36-2f1e0d4b7a91";

const EXAMPLE_COUNTERPARTY = {
  id: CP,
  name: "Northwind Traders Ltd",
  email: "ap@northwind.example",
  open_count: 3,
  outstanding: [{ currency: "EUR", amount_minor: "1125000" }],
  overdue: [{ currency: "EUR", amount_minor: "375000" }],
} as const;

const GROUPING =
  "A counterparty is the debtor of the organization's creditor-role obligations, grouped by debtor email (case-insensitive), else by the debtor name normalized as payer names are for matching (case, accents, punctuation and legal forms such as Ltd or GmbH ignored). Its `id` is derived from the organization and that key: the same grouping key always has the same id. `open_count`, `outstanding` and `overdue` (deadline before today, UTC) count the obligations not RECONCILED and not cancelled, totals by currency.";

export const listCounterpartiesOp = defineOperation({
  operationId: "listCounterparties",
  method: "GET",
  path: "/counterparties",
  summary: "List counterparties (the debtors, with what they owe)",
  description: [
    GROUPING,
    "Ordered by name, then id. `q` narrows to a case-insensitive substring of the name or email. Reading needs `obligations:read` (API key) or any role.",
  ].join("\n\n"),
  tags,
  auth: "issuer",
  permission: "obligations:read",
  query: ZCounterpartyListQuery,
  success: {
    status: 200,
    description: "A page of counterparties",
    schema: ZCounterpartyList,
    example: { items: [EXAMPLE_COUNTERPARTY], limit: 50, offset: 0 },
  },
});

export const getCounterpartyOp = defineOperation({
  operationId: "getCounterparty",
  method: "GET",
  path: "/counterparties/{id}",
  summary: "A counterparty with its open obligations",
  description: `${GROUPING}\n\n\`obligations\`: its open obligations, oldest first. An id of another organization (or no longer derived by any obligation) is 404.`,
  tags,
  auth: "issuer",
  permission: "obligations:read",
  params: ZIdParams,
  success: {
    status: 200,
    description: "The counterparty",
    schema: ZCounterpartyDetail,
    example: {
      ...EXAMPLE_COUNTERPARTY,
      open_count: 1,
      outstanding: [{ currency: "EUR", amount_minor: "375000" }],
      obligations: [
        {
          id: "0f8e7d6c-5b4a-4392-8170-6e5d4c3b2a19",
          reference: "OBL-2026-0042",
          invoice_number: "INV-2026-0042",
          status: "PAYMENT_REQUESTED",
          currency: "EUR",
          amount_minor: "375000",
          outstanding_minor: "375000",
          deadline: "2026-11-15",
          overdue: true,
          version: 2,
        },
      ],
    },
  },
});

const LINK_RULES =
  "The account link is a capability like a payment request's hosted link: `{PUBLIC_BASE_URL}/a/{id}#{token}`, valid 90 days, the token stored only hashed and never logged. The payer who opens it sees every open obligation of the counterparty (also those registered later), with each obligation's own recipient actions, and can pay several in one transfer (baskets). Making, revoking or reissuing needs `obligations:write` (API key) or the member role and above.";

export const createAccountLinkOp = defineOperation({
  operationId: "createAccountLink",
  method: "POST",
  path: "/counterparties/{id}/account-link",
  summary: "Make (or reissue) the counterparty's account link",
  description: `${LINK_RULES}\n\nA counterparty has at most one live account link: making a new one revokes the previous one (its sessions get 410 \`payment_request_revoked\`). The \`hosted_url\` is shown here only. Revoking an account link never revokes the obligations' own links.`,
  tags,
  auth: "issuer",
  permission: "obligations:write",
  idempotent: "required",
  params: ZIdParams,
  success: {
    status: 201,
    description: "The new link",
    schema: ZAccountLink,
    example: {
      id: "7c6b5a49-3827-4165-a4b3-c2d1e0f9a8b7",
      hosted_url: "https://pay.example.com/a/7c6b5a49-3827-4165-a4b3-c2d1e0f9a8b7#3q2-7wEVLMxQK0aQ8lJwYvH4c7yq3Z0m1N5bT6uR9sA",
      expires_at: "2027-02-26T10:00:00.000Z",
    },
  },
});

export const getAccountLinkOp = defineOperation({
  operationId: "getAccountLink",
  method: "GET",
  path: "/counterparties/{id}/account-link",
  summary: "The counterparty's current account link (without its URL)",
  description: `${LINK_RULES}\n\nThe most recent link's state; 404 when none was made. The URL is never shown again: reissue to get a new one.`,
  tags,
  auth: "issuer",
  permission: "obligations:write",
  params: ZIdParams,
  success: {
    status: 200,
    description: "The link's state",
    schema: ZAccountLinkState,
    example: { id: "7c6b5a49-3827-4165-a4b3-c2d1e0f9a8b7", expires_at: "2027-02-26T10:00:00.000Z", revoked_at: null, created_at: "2026-11-28T10:00:00.000Z" },
  },
});

export const revokeAccountLinkOp = defineOperation({
  operationId: "revokeAccountLink",
  method: "DELETE",
  path: "/counterparties/{id}/account-link",
  summary: "Revoke the counterparty's account link",
  description: `${LINK_RULES}\n\nIts sessions get 410 \`payment_request_revoked\` from now on. 404 when the counterparty has no live account link.`,
  tags,
  auth: "issuer",
  permission: "obligations:write",
  params: ZIdParams,
  success: { status: 204, description: "Revoked" },
});

export const counterpartyOperations = [listCounterpartiesOp, getCounterpartyOp, createAccountLinkOp, getAccountLinkOp, revokeAccountLinkOp];
