import { handle } from "@/lib/http/handle";
import { recipientSessionOp } from "@/lib/operations/recipient";
import { exchangeRecipientToken } from "@/lib/recipients/exchange-token";
import { exchangeHandleOptions } from "@/lib/recipients/exchange-options";
import { recipientSessionCookie } from "@/lib/recipients/session-cookie";
import { notServed } from "@/lib/http/not-served";
import { payerLanguage } from "@/lib/recipients/payer-language";

// POST /recipient/session – exchange the link token for a recipient session cookie
export const POST = handle(
  recipientSessionOp,
  async ({ req, tx, body }) => {
    const r = await exchangeRecipientToken(tx, { token: body.token, language: payerLanguage(req) });
    return { status: 200, body: r.body, cookies: [recipientSessionCookie(req, "single", r.paymentRequestId, r.sessionToken)] };
  },
  exchangeHandleOptions("single"),
);

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { GET, HEAD, PUT, PATCH, DELETE } = notServed("POST");
