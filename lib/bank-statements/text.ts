// Small shared helpers of the statement parsers: byte decoding, exact amount normalization,
// dates and whitespace. No floats anywhere: amounts stay decimal strings.

import { MAX_DATE_YEAR, MIN_DATE_YEAR } from "@/lib/schemas/common";
import { MAX_STATEMENT_TRANSACTIONS as MAX, StatementError } from "./types";

const utf8 = new TextDecoder("utf-8", { fatal: true });
const cp1252 = new TextDecoder("windows-1252");

// Bank exports are UTF-8 (with or without BOM) or, in older German/Dutch software,
// Latin-1/windows-1252. A byte sequence that is not valid UTF-8 is windows-1252
// (a superset of the printable Latin-1 range), which never fails.
export function decodeText(bytes: Uint8Array): string {
  // Some Windows banking software saves CSV as UTF-16 with a byte order mark.
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder("utf-16le").decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder("utf-16be").decode(bytes.subarray(2));
  let start = 0;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) start = 3;
  const body = start ? bytes.subarray(start) : bytes;
  try {
    return utf8.decode(body);
  } catch {
    return cp1252.decode(body);
  }
}

// Control characters (binary garbage in some exports; NUL, which PostgreSQL refuses in text)
// are dropped; tab, line feed and carriage return stay. MT940 lines and CSV text both pass here.
export function dropControl(s: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
  return s.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, "");
}

// Runs of whitespace (incl. tabs and no-break spaces) become one space; ends trimmed.
export function collapse(s: string): string {
  return s.replace(/[\s\u00a0]+/g, " ").trim();
}

// No amount is written with more characters than this (18 digits, grouping, sign and a
// currency code fit many times over): longer text is refused before any pattern reads it.
export const MAX_AMOUNT_TEXT = 100;

// "0001234.50" -> "1234.50", ".5" -> "0.5", "12." -> "12". Fraction digits are kept as written:
// the importer refuses more decimals than the currency has, the parser does not round.
function canonical(intPart: string, frac: string): string {
  const i = intPart.replace(/^0+(?=\d)/, "") || "0";
  return frac ? `${i}.${frac}` : i;
}

// An unsigned decimal in the file's own notation ("1234,5" in MT940, "8.85" in camt) to
// "1234.5". Returns null when the text is not a plain decimal number.
export function plainDecimal(raw: string, decimal: "." | ","): string | null {
  const s = raw.trim();
  if (s.length > MAX_AMOUNT_TEXT) return null;
  // The separator and its fraction as one optional group: two adjacent \d* would split a
  // run of digits every possible way before failing (quadratic).
  const m = (decimal === "," ? /^(\d*)(?:,(\d*))?$/ : /^(\d*)(?:\.(\d*))?$/).exec(s);
  if (!m || (m[1] === "" && !m[2])) return null;
  return canonical(m[1], m[2] ?? "");
}

// A human-formatted amount (CSV): optional sign (leading or trailing minus, plus, or
// parentheses), grouping separators (".", ",", space, apostrophe, thin space) and a currency
// symbol or code around it. Returns the absolute value and whether it was negative, or null.
export function parseHumanAmount(raw: string, decimal: "." | ","): { value: string; negative: boolean } | null {
  let s = raw.trim();
  if (!s || s.length > MAX_AMOUNT_TEXT) return null;
  let negative = false;
  if (/^\(.*\)$/.test(s)) {
    negative = true;
    s = s.slice(1, -1);
  }
  // Currency codes/symbols and spaces around or inside the number.
  s = s.replace(/[A-Za-z€$£¥₣\s\u00a0\u202f']/g, "");
  if (s.startsWith("-") || s.startsWith("−")) {
    negative = !negative;
    s = s.slice(1);
  } else if (s.startsWith("+")) s = s.slice(1);
  else if (s.endsWith("-")) {
    negative = !negative;
    s = s.slice(0, -1);
  }
  const group = decimal === "," ? "." : ",";
  const parts = s.split(decimal);
  if (parts.length > 2) return null;
  const [intRaw, frac = ""] = parts;
  if (intRaw.includes(group)) {
    // Grouping must be regular ("1.234.567"), otherwise the separator was probably the decimal one.
    if (!(group === "." ? /^\d{1,3}(?:\.\d{3})+$/ : /^\d{1,3}(?:,\d{3})+$/).test(intRaw)) return null;
  }
  const int = intRaw.split(group).join("");
  if (!/^\d*$/.test(int) || !/^\d*$/.test(frac) || (int === "" && frac === "")) return null;
  return { value: canonical(int, frac), negative };
}

// Years outside the range the API accepts for any date (lib/schemas/common.ts) are no dates.
export function isValidDate(y: number, m: number, d: number): boolean {
  if (!(m >= 1 && m <= 12 && d >= 1 && y >= MIN_DATE_YEAR && y <= MAX_DATE_YEAR)) return false;
  const days = [31, (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  return d <= days[m - 1];
}

export function ymd(y: number, m: number, d: number): string {
  return `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
}

// "2014-12-31", "2014-12-31T13:15:00+01:00" -> "2014-12-31" (the date as the bank wrote it,
// no time-zone shift: a booking date is a calendar day of the bank).
export function isoDatePart(raw: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(raw.trim());
  if (!m || !isValidDate(+m[1], +m[2], +m[3])) return null;
  return `${m[1]}-${m[2]}-${m[3]}`;
}

// ISO 13616 check (mod 97) on an IBAN without spaces.
export function isIban(s: string): boolean {
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(s)) return false;
  const moved = s.slice(4) + s.slice(0, 4);
  let rem = 0;
  for (const ch of moved) {
    const v = ch >= "A" ? String(ch.charCodeAt(0) - 55) : ch;
    for (const digit of v) rem = (rem * 10 + (digit.charCodeAt(0) - 48)) % 97;
  }
  return rem === 1;
}

export function tooMany(count: number): void {
  if (count > MAX) throw new StatementError("too_many", `The statement holds more than ${MAX} transactions; split it into smaller files`);
}
