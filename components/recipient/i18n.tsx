"use client";

import { createContext, useContext, useMemo, type ReactNode } from "react";
import type { RecipientKey, RecipientMessages } from "@/lib/i18n/recipient/en";
import { interpolate } from "@/lib/i18n/recipient/interpolate";

// The one catalogue the server chose for this visit, and the locale of dates and amounts.
// Only this language travels to the browser (a prop of the island, not a JavaScript chunk).
export type T = (key: RecipientKey, vars?: Record<string, string | number>) => string;
type I18n = { t: T; locale: readonly string[] };

const Ctx = createContext<I18n | null>(null);

export function I18nProvider({ messages, locale, children }: { messages: RecipientMessages; locale: string; children: ReactNode }) {
  const value = useMemo<I18n>(() => ({ t: (key, vars) => interpolate(messages[key] ?? key, vars), locale: [locale] }), [messages, locale]);
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}

export function useI18n(): I18n {
  const v = useContext(Ctx);
  if (!v) throw new Error("useI18n outside I18nProvider");
  return v;
}
