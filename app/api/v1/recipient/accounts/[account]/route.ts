import { handle } from "@/lib/http/handle";
import { getAccountOp } from "@/lib/operations/recipient-accounts";
import { getAccount } from "@/lib/account-links/get-account";
import { notServed } from "@/lib/http/not-served";

// GET /recipient/accounts/{account} – the counterparty and the recipient invoice of each open obligation
export const GET = handle(getAccountOp, async ({ tx, principal }) => ({ status: 200, body: await getAccount(tx, { principal }) }));

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { POST, PUT, PATCH, DELETE } = notServed("GET");
