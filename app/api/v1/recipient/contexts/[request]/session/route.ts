import { handle } from "@/lib/http/handle";
import { recipientContextSessionOp } from "@/lib/operations/recipient";
import { exchangeRecipientToken } from "@/lib/recipients/exchange-token";
import { exchangeHandleOptions } from "@/lib/recipients/exchange-options";
import { recipientSessionCookie } from "@/lib/recipients/session-cookie";
import { notServed } from "@/lib/http/not-served";

// POST /recipient/contexts/{request}/session – exchange the link token for a recipient session cookie
export const POST = handle(
  recipientContextSessionOp,
  async ({ req, tx, body, params }) => {
    const r = await exchangeRecipientToken(tx, { token: body.token, requestId: params.request });
    return { status: 200, body: r.body, cookies: [recipientSessionCookie(req, "context", r.paymentRequestId, r.sessionToken)] };
  },
  exchangeHandleOptions("context"),
);

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { GET, HEAD, PUT, PATCH, DELETE } = notServed("POST");
