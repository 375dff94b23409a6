import { LANGUAGE_COOKIE, isRecipientLanguage, parseAcceptLanguage } from "@/lib/i18n/recipient";
import { readCookie } from "@/lib/http/cookies";

// The hosted page's language for this request (the switcher's fos_lang cookie, else the
// first Accept-Language the page speaks), stored at the token exchange as the payer's
// language for reminders; undefined when the request names none (the stored one stays).
export function payerLanguage(req: Request): string | undefined {
  const cookie = readCookie(req, LANGUAGE_COOKIE);
  if (isRecipientLanguage(cookie)) return cookie;
  return parseAcceptLanguage(req.headers.get("accept-language"))
    .map((t) => t.split("-")[0].toLowerCase())
    .find(isRecipientLanguage);
}
