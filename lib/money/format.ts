// Money for people: minor-unit strings (the wire form) <-> what a person reads and types.
// Never through floating point: amounts are split into whole and fraction with bigint
// math, and Intl only supplies the locale's symbols, digits, grouping and layout
// (formatToParts of bigint values). Usable on the server and in the browser.

import { trimEndChar } from "@/lib/strings";

// Minor digits of the service's currencies (ISO 4217); others are asked of Intl.
const MINOR_DIGITS: Record<string, number> = { CAD: 2, USD: 2, EUR: 2, GBP: 2, JPY: 0, AUD: 2, CHF: 2 };

export function minorDigits(currency: string): number {
  const known = MINOR_DIGITS[currency];
  if (known !== undefined) return known;
  return new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
}

const INTEGER = /^-?(0|[1-9][0-9]*)$/;

function toBigInt(minor: string | bigint): bigint {
  if (typeof minor === "bigint") return minor;
  const s = minor.trim();
  if (!INTEGER.test(s)) throw new RangeError(`not an integer amount of minor units: ${JSON.stringify(minor)}`);
  return BigInt(s);
}

const pow10 = (n: number): bigint => 10n ** BigInt(n);

export type Locale = string | readonly string[] | undefined;

export type FormatOptions = {
  locale?: Locale;
  // "symbol" (€, US$ ...), "narrowSymbol" ($), "code" (EUR) or "name" (euros)
  currencyDisplay?: "symbol" | "narrowSymbol" | "code" | "name";
  // "auto": a minus sign for negatives only; "always": + for positives too
  signDisplay?: "auto" | "always";
};

// A locale Intl accepts, or undefined (the runtime default) for a malformed one such as
// a browser's odd Accept-Language value: formatting never throws for a visitor's locale.
export function safeLocale(locale: Locale): string[] | undefined {
  if (locale === undefined) return undefined;
  try {
    const ok = Intl.NumberFormat.supportedLocalesOf(typeof locale === "string" ? [locale] : [...locale]);
    return ok.length ? ok : undefined;
  } catch {
    return undefined;
  }
}

const cache = new Map<string, Intl.NumberFormat>();
function numberFormat(locale: Locale, key: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const resolved = safeLocale(locale);
  const k = `${resolved?.join(",") ?? ""}|${key}`;
  let nf = cache.get(k);
  if (!nf) {
    nf = new Intl.NumberFormat(resolved, options);
    cache.set(k, nf);
  }
  return nf;
}

// The locale's digits 0-9 (Latin for most, e.g. Arabic-Indic for ar-EG).
function localDigits(locale: Locale): string[] {
  const nf = numberFormat(locale, "digits", { useGrouping: false });
  return Array.from({ length: 10 }, (_, d) => nf.format(BigInt(d)));
}

// Formats an amount of minor units with the currency's symbol for a locale, e.g.
// ("123456", "EUR", { locale: "de-DE" }) -> "1.234,56 €"; ("1500", "JPY") -> "¥1,500".
export function formatMinor(minor: string | bigint, currency: string, opts: FormatOptions = {}): string {
  return formatMinorToParts(minor, currency, opts)
    .map((p) => p.value)
    .join("");
}

export function formatMinorToParts(minor: string | bigint, currency: string, opts: FormatOptions = {}): Intl.NumberFormatPart[] {
  const value = toBigInt(minor);
  const digits = minorDigits(currency);
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const whole = abs / pow10(digits);
  const fraction = (abs % pow10(digits)).toString().padStart(digits, "0");
  const display = opts.currencyDisplay ?? "symbol";
  const sign = opts.signDisplay ?? "auto";
  const nf = numberFormat(opts.locale, `cur|${currency}|${display}|${digits}|${sign}`, {
    style: "currency",
    currency,
    currencyDisplay: display,
    signDisplay: sign === "always" ? "exceptZero" : "auto",
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
  // Lay out the whole part with the locale's pattern; a negative amount below one unit
  // (e.g. -0.50) borrows the sign from -1 and puts a zero in place of the 1.
  const zeroWithSign = whole === 0n && value !== 0n;
  const parts = nf.formatToParts(zeroWithSign ? (negative ? -1n : 1n) : negative ? -whole : whole);
  const local = localDigits(opts.locale);
  return parts.map((p) => {
    if (p.type === "fraction") return { ...p, value: [...fraction].map((d) => local[Number(d)]).join("") };
    if (zeroWithSign && p.type === "integer") return { ...p, value: local[0] };
    return p;
  });
}

// The plain decimal form of an amount, e.g. ("123456", "EUR") -> "1234.56", ("1500",
// "JPY") -> "1500": what an input field shows for an existing amount.
export function minorToDecimal(minor: string | bigint, currency: string): string {
  const value = toBigInt(minor);
  const digits = minorDigits(currency);
  const negative = value < 0n;
  const abs = (negative ? -value : value).toString().padStart(digits + 1, "0");
  const whole = abs.slice(0, abs.length - digits);
  const fraction = abs.slice(abs.length - digits);
  return `${negative ? "-" : ""}${whole}${digits ? `.${fraction}` : ""}`;
}

export type ParseResult = { ok: true; minor: string } | { ok: false; message: string };

// A typed amount -> a positive integer string of minor units, e.g. ("1,234.5", "EUR") ->
// "123450", ("1500", "JPY") -> "1500". A dot is the decimal separator; commas, spaces and
// apostrophes between digit groups are ignored. Refuses more decimals than the currency
// has, a decimal comma (ambiguous), signs, exponents and zero.
export function parseDecimalToMinor(input: string, currency: string): ParseResult {
  const digits = minorDigits(currency);
  const s = input.trim().replace(/[\s\u00a0\u202f_']/g, "");
  if (s === "") return { ok: false, message: "Enter an amount." };
  if (/^[0-9]{1,3}(,[0-9]{3})*,[0-9]{1,2}$/.test(s) || /^[0-9]*,[0-9]{1,2}$/.test(s)) {
    return { ok: false, message: "Use a dot as the decimal separator, e.g. 1250.50." };
  }
  const m = /^([0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)?(?:\.([0-9]*))?$/.exec(s);
  if (!m || (m[1] === undefined && !m[2])) return { ok: false, message: "Enter a number, e.g. 1250.50." };
  const whole = (m[1] ?? "0").replace(/,/g, "");
  const fraction = m[2] ?? "";
  if (fraction.length > digits) {
    return {
      ok: false,
      message: digits === 0 ? `${currency} amounts have no decimal places.` : `${currency} amounts have at most ${digits} decimal places.`,
    };
  }
  const minor = BigInt(whole) * pow10(digits) + BigInt(fraction.padEnd(digits, "0") || "0");
  if (minor <= 0n) return { ok: false, message: "The amount must be greater than zero." };
  if (minor > 9223372036854775807n) return { ok: false, message: "The amount is too large." };
  return { ok: true, minor: minor.toString() };
}

// The recipient page's amount input: what a payer types ("1250", "1250.5", "1250,50") ->
// minor units, or null when it is not a positive amount with at most the currency's
// fraction digits. Unlike parseDecimalToMinor (issuer staff, who get a hint instead), a
// single decimal comma is accepted — payers everywhere type it; grouping separators are
// refused rather than guessed ("1,250.00" -> null).
export function decimalInputToMinor(input: string, currency: string): string | null {
  const digits = minorDigits(currency);
  const m = /^\s*(\d+)(?:[.,](\d*))?\s*$/.exec(input);
  if (!m) return null;
  const frac = m[2] ?? "";
  if (frac.length > digits) return null;
  const minor = `${m[1]}${frac.padEnd(digits, "0")}`.replace(/^0+(?=\d)/, "");
  return /^[1-9]\d*$/.test(minor) && BigInt(minor) <= 9223372036854775807n ? minor : null;
}

// "30" -> 3000 basis points, "12.5" -> 1250, "0.01" -> 1 (at most two decimals, 0 < p <= 100).
export function parsePercentToBasisPoints(input: string): { ok: true; basisPoints: number } | { ok: false; message: string } {
  const s = input.trim().replace(/%$/, "").trim();
  const m = /^([0-9]+)?(?:\.([0-9]*))?$/.exec(s);
  if (s === "" || !m || (m[1] === undefined && !m[2])) return { ok: false, message: "Enter a percentage, e.g. 30 or 12.5." };
  if ((m[2] ?? "").length > 2) return { ok: false, message: "At most two decimal places." };
  const bp = BigInt(m[1] ?? "0") * 100n + BigInt((m[2] ?? "").padEnd(2, "0") || "0");
  if (bp < 1n || bp > 10000n) return { ok: false, message: "Between 0.01 and 100 percent." };
  return { ok: true, basisPoints: Number(bp) };
}

// 3000 -> "30", 1250 -> "12.5", 1 -> "0.01"
export function basisPointsToPercent(bp: number): string {
  const whole = Math.trunc(bp / 100);
  const rest = trimEndChar((bp % 100).toString().padStart(2, "0"), "0");
  return rest ? `${whole}.${rest}` : String(whole);
}
