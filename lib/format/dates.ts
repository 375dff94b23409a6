import { safeLocale, type Locale } from "@/lib/money/format";

// Dates for people, in their locale. (Money: lib/money/format.ts.)

// "2026-12-31" -> "31 December 2026" (en-GB) / "December 31, 2026" (en-US); the date is a
// calendar date, so it is formatted in UTC and never shifts a day.
export function formatDate(date: string, locale?: Locale, style: "long" | "medium" = "long"): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return date;
  return new Intl.DateTimeFormat(safeLocale(locale), { dateStyle: style, timeZone: "UTC" }).format(new Date(`${date}T00:00:00Z`));
}

// An RFC 3339 timestamp in the visitor's own time zone.
export function formatDateTime(ts: string, locale?: Locale): string {
  const d = new Date(ts);
  if (Number.isNaN(d.getTime())) return ts;
  return new Intl.DateTimeFormat(safeLocale(locale), { dateStyle: "medium", timeStyle: "short" }).format(d);
}
