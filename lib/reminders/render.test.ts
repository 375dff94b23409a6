import { describe, expect, it } from "vitest";
import { REMINDER_CATALOGUES } from "@/lib/i18n/reminders";
import type { RecipientLanguage } from "@/lib/i18n/recipient";
import { type ReminderFacts, renderReminder } from "@/lib/reminders/render";

const facts = (language: RecipientLanguage, today: string): ReminderFacts => ({
  language,
  tone: "friendly",
  today,
  dueDate: "2026-11-01",
  debtorName: "Ada",
  issuerName: "Acme",
  senderName: "Acme",
  invoice: "INV-1",
  currency: "EUR",
  outstandingMinor: 12_345n,
  paymentReference: "",
  bank: null,
  interest: null,
  hostedUrl: null,
});

// The overdue lead counts days in words that agree with the number: one day is singular.
describe("renderReminder: days overdue", () => {
  it("says one day in the singular and several in the plural, in every language", () => {
    for (const language of Object.keys(REMINDER_CATALOGUES) as RecipientLanguage[]) {
      const one = renderReminder(facts(language, "2026-11-02")).text;
      const five = renderReminder(facts(language, "2026-11-06")).text;
      expect(one, language).not.toMatch(/\b1 (days|Tagen|jours|días|giorni|dagen)\b/);
      expect(five, language).toContain("5");
    }
    expect(renderReminder(facts("de", "2026-11-02")).text).toContain("seit einem Tag überfällig");
    expect(renderReminder(facts("en", "2026-11-02")).text).toContain("now one day overdue");
    expect(renderReminder(facts("en", "2026-11-06")).text).toContain("now 5 days overdue");
  });
});
