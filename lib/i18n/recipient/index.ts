import { en, type RecipientMessages } from "./en";
import { de } from "./de";
import { fr } from "./fr";
import { es } from "./es";
import { it } from "./it";
import { nl } from "./nl";
import { ja } from "./ja";

// The languages of the hosted payment page. The server picks one per request (the `lang`
// query parameter of the switcher, else the `fos_lang` cookie it left, else Accept-Language,
// else English) and sends the browser only that catalogue.
export const RECIPIENT_LANGUAGES = ["en", "de", "fr", "es", "it", "nl", "ja"] as const;
export type RecipientLanguage = (typeof RECIPIENT_LANGUAGES)[number];
export const LANGUAGE_COOKIE = "fos_lang";

// Each language named in itself, for the switcher.
export const LANGUAGE_NAMES: Record<RecipientLanguage, string> = {
  en: "English",
  de: "Deutsch",
  fr: "Français",
  es: "Español",
  it: "Italiano",
  nl: "Nederlands",
  ja: "日本語",
};

const CATALOGUES: Record<RecipientLanguage, RecipientMessages> = { en, de, fr, es, it, nl, ja };

export const isRecipientLanguage = (s: string | undefined | null): s is RecipientLanguage => !!s && (RECIPIENT_LANGUAGES as readonly string[]).includes(s);

export const catalogue = (lang: RecipientLanguage): RecipientMessages => CATALOGUES[lang];

// Accept-Language -> tags by descending q (q=0 dropped), e.g. "de-CH,de;q=0.9,en;q=0.8".
export function parseAcceptLanguage(header: string | null | undefined): string[] {
  if (!header) return [];
  return header
    .split(",")
    .map((part, i) => {
      const [tag, ...params] = part.trim().split(";");
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)).find(Boolean);
      return { tag: tag.trim(), q: q ? Number(q[1]) : 1, i };
    })
    .filter((x) => x.tag && x.tag !== "*" && /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/.test(x.tag) && x.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i)
    .map((x) => x.tag);
}

export type LanguageChoice = { lang: RecipientLanguage; formatLocale: string; explicit: boolean };

// The page's language, and the locale its dates and amounts use: the visitor's own regional
// variant of that language when Accept-Language names one (de-CH formats 1’234.50), else the
// language itself.
export function chooseLanguage(input: { query?: string | null; cookie?: string | null; acceptLanguage?: string | null }): LanguageChoice {
  const tags = parseAcceptLanguage(input.acceptLanguage);
  const primary = (t: string) => t.split("-")[0].toLowerCase();
  let lang: RecipientLanguage = "en";
  let explicit = false;
  if (isRecipientLanguage(input.query)) {
    lang = input.query;
    explicit = true;
  } else if (isRecipientLanguage(input.cookie)) lang = input.cookie;
  else lang = (tags.map(primary).find(isRecipientLanguage) as RecipientLanguage | undefined) ?? "en";
  const regional = tags.find((t) => primary(t) === lang && t.includes("-"));
  return { lang, formatLocale: regional ?? lang, explicit };
}

export type { RecipientMessages };
