// Money and dates for people, in their locale, without floating point.
// Amounts on the wire are strings of integer minor units (may be "0"); they are turned into
// an exact decimal string ("125000" EUR -> "1250.00") and handed to Intl.NumberFormat,
// which formats numeric strings exactly (Intl.NumberFormat v3), so 9223372036854775807
// keeps every digit.

// ISO 4217 minor-unit digits as Intl knows them (EUR 2, JPY 0, ...), locale-independent.
export function currencyDigits(currency: string): number {
  return new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
}

// "125000", 2 -> "1250.00"; "5", 2 -> "0.05"; "-125", 2 -> "-1.25"; "7", 0 -> "7".
export function minorToDecimalString(minor: string, digits: number): string {
  if (!/^-?\d+$/.test(minor)) throw new Error(`not an integer amount: ${minor}`);
  const negative = minor.startsWith("-");
  const abs = (negative ? minor.slice(1) : minor).replace(/^0+(?=\d)/, "");
  if (digits === 0) return `${negative ? "-" : ""}${abs}`;
  const padded = abs.padStart(digits + 1, "0");
  return `${negative ? "-" : ""}${padded.slice(0, -digits)}.${padded.slice(-digits)}`;
}

const safeLocale = (locale?: string | readonly string[]) => {
  try {
    return Intl.NumberFormat.supportedLocalesOf(locale ?? []).length ? (locale as string | string[]) : undefined;
  } catch {
    return undefined;
  }
};

// "125000", "EUR", "de-DE" -> "1.250,00 €"
export function formatMinor(minor: string, currency: string, locale?: string | readonly string[]): string {
  const digits = currencyDigits(currency);
  const nf = new Intl.NumberFormat(safeLocale(locale), { style: "currency", currency, minimumFractionDigits: digits, maximumFractionDigits: digits });
  // Intl.NumberFormat formats a decimal string exactly (no conversion to a double).
  return nf.format(minorToDecimalString(minor, digits) as unknown as number);
}

// What a person types ("1250", "1250.5", "1250,50") -> minor units as a string, or null when
// it is not a positive amount with at most the currency's fraction digits. No grouping
// separators: "1,250.00" is refused rather than guessed.
export function decimalInputToMinor(input: string, currency: string): string | null {
  const digits = currencyDigits(currency);
  const m = /^\s*(\d+)(?:[.,](\d*))?\s*$/.exec(input);
  if (!m) return null;
  const frac = m[2] ?? "";
  if (frac.length > digits) return null;
  const minor = `${m[1]}${frac.padEnd(digits, "0")}`.replace(/^0+(?=\d)/, "");
  return /^[1-9]\d*$/.test(minor) ? minor : null;
}

// "2026-12-31" -> "31 December 2026" (en-GB) / "December 31, 2026" (en-US); the date is a
// calendar date, so it is formatted in UTC and never shifts a day.
export function formatDate(date: string, locale?: string | readonly string[], style: "long" | "medium" = "long"): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return date;
  return new Intl.DateTimeFormat(safeLocale(locale), { dateStyle: style, timeZone: "UTC" }).format(new Date(`${date}T00:00:00Z`));
}

// An RFC 3339 timestamp in the visitor's own time zone.
export function formatDateTime(ts: string, locale?: string | readonly string[]): string {
  const d = new Date(ts);
  if (Number.isNaN(d.getTime())) return ts;
  return new Intl.DateTimeFormat(safeLocale(locale), { dateStyle: "medium", timeStyle: "short" }).format(d);
}
