import { handle } from "@/lib/http/handle";
import { accountSessionOp } from "@/lib/operations/recipient-accounts";
import { exchangeAccountToken } from "@/lib/account-links/exchange-account-token";
import { accountExchangeOptions } from "@/lib/account-links/exchange-options";
import { recipientSessionCookie } from "@/lib/recipients/session-cookie";
import { notServed } from "@/lib/http/not-served";

// POST /recipient/accounts/{account}/session – exchange the account link's token for a session cookie
export const POST = handle(
  accountSessionOp,
  async ({ req, tx, body, params }) => {
    const r = await exchangeAccountToken(tx, { token: body.token, accountId: params.account });
    if (!r) throw new Error("unreachable: an exchange that is not a replay returns or throws");
    return { status: 200, body: r.body, cookies: [recipientSessionCookie(req, "account", r.accountId, r.sessionToken)] };
  },
  accountExchangeOptions,
);

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { GET, HEAD, PUT, PATCH, DELETE } = notServed("POST");
