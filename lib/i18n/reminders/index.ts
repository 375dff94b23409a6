import { en, type ReminderMessages } from "./en";
import { de } from "./de";
import { fr } from "./fr";
import { es } from "./es";
import { it } from "./it";
import { nl } from "./nl";
import { ja } from "./ja";
import type { RecipientLanguage } from "@/lib/i18n/recipient";

// The reminder texts in the seven languages of the hosted payment page.
export const REMINDER_CATALOGUES: Record<RecipientLanguage, ReminderMessages> = { en, de, fr, es, it, nl, ja };

// The locale used for amounts and dates in each language's reminders.
export const REMINDER_LOCALES: Record<RecipientLanguage, string> = {
  en: "en-GB",
  de: "de-DE",
  fr: "fr-FR",
  es: "es-ES",
  it: "it-IT",
  nl: "nl-NL",
  ja: "ja-JP",
};
