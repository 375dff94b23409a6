import type { NextRequest } from "next/server";
import { isUuid } from "@/lib/ids";
import { LANGUAGE_COOKIE, catalogue, chooseLanguage } from "@/lib/i18n/recipient";
import { recipientManifest } from "@/lib/recipient-page/assets";
import { newNonce, recipientCsp } from "@/lib/recipient-page/csp";
import { recipientPageHtml } from "@/lib/recipient-page/html";

// GET /a/{account} – the payer's account page of an account link (`/a/{account}#{token}`),
// served like the payment page /r/{request} (app/r/[request]/route.ts): a plain HTML shell
// with the account island's own entry script (components/recipient/account-entry.ts) and its
// rendering chunk modulepreloaded (scripts/build-recipient.mjs, `accountPreload`); the
// token stays in the fragment and is exchanged for a cookie scoped to the account's API.
export const dynamic = "force-dynamic";

export async function GET(request: NextRequest, { params }: { params: Promise<{ account: string }> }) {
  const { account: id } = await params;
  const m = recipientManifest();
  const choice = chooseLanguage({
    query: request.nextUrl.searchParams.get("lang"),
    cookie: request.cookies.get(LANGUAGE_COOKIE)?.value,
    acceptLanguage: request.headers.get("accept-language"),
  });
  const nonce = newNonce();
  const https = (request.headers.get("x-forwarded-proto")?.split(",")[0].trim() ?? request.nextUrl.protocol.replace(":", "")) === "https";
  const html = recipientPageHtml({
    requestId: isUuid(id) ? id.toLowerCase() : null,
    choice,
    t: catalogue(choice.lang),
    nonce,
    manifest: { ...m, entry: m.account ?? m.entry, preload: m.accountPreload ?? [] },
  });
  return new Response(html, {
    status: 200,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": recipientCsp(nonce, https),
      "referrer-policy": "no-referrer",
      "cache-control": "no-store",
      "x-robots-tag": "noindex, nofollow",
      vary: "accept-language, cookie",
    },
  });
}
