import type { NextRequest } from "next/server";
import { isUuid } from "@/lib/ids";
import { LANGUAGE_COOKIE, catalogue, chooseLanguage } from "@/lib/i18n/recipient";
import { recipientManifest } from "@/lib/recipient-page/assets";
import { newNonce, recipientCsp } from "@/lib/recipient-page/csp";
import { recipientPageHtml } from "@/lib/recipient-page/html";

// GET /r/{request} – the hosted payment page of a secure link (`/r/{request}#{token}`).
// Served as a plain HTML document with its own small script bundle instead of an App Router
// page, whose client runtime alone outweighed the page's JavaScript budget. No invoice data
// is rendered here: the token stays in the fragment (never sent to the server), the island
// exchanges it for an HttpOnly cookie scoped to the recipient API. The language: the
// switcher's ?lang, else the fos_lang cookie, else Accept-Language, else English; only that
// catalogue travels to the browser.
export const dynamic = "force-dynamic";

export async function GET(request: NextRequest, { params }: { params: Promise<{ request: string }> }) {
  const { request: id } = await params;
  const choice = chooseLanguage({
    query: request.nextUrl.searchParams.get("lang"),
    cookie: request.cookies.get(LANGUAGE_COOKIE)?.value,
    acceptLanguage: request.headers.get("accept-language"),
  });
  const nonce = newNonce();
  const https = (request.headers.get("x-forwarded-proto")?.split(",")[0].trim() ?? request.nextUrl.protocol.replace(":", "")) === "https";
  const html = recipientPageHtml({ requestId: isUuid(id) ? id.toLowerCase() : null, choice, t: catalogue(choice.lang), nonce, manifest: recipientManifest() });
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
