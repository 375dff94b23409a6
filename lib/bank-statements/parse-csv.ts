// CSV bank exports: UTF-8 (BOM or not) or windows-1252, delimiter sniffed among , ; tab |,
// quoted fields (embedded delimiters, quotes and newlines), preamble lines before the header
// (typical of German banks), signed amount or debit/credit columns, decimal comma with
// thousands dots. Columns come from a mapping or from a guess over common header names.

import type { TCsvMapping } from "./csv-mapping";
import { collapse, decodeText, dropControl, isIban, isValidDate, MAX_AMOUNT_TEXT, parseHumanAmount, tooMany, ymd } from "./text";
import { type ParsedStatement, type ParsedTransaction, StatementError } from "./types";

type Row = { cells: string[]; line: number };
type Col = string | number;

// RFC 4180 with the common deviations: any delimiter, CR/LF/CRLF, a stray quote inside an
// unquoted field kept as text. Linear in the input: a field is a slice of the text (or, when
// quoted, its pieces between doubled quotes joined), never grown character by character,
// which left the garbage collector most of the work on big files.
export function readCsv(text: string, delimiter: string): Row[] {
  const rows: Row[] = [];
  let cells: string[] = [];
  let line = 1;
  const n = text.length;
  let i = 0;
  let rowLine = 1;
  for (;;) {
    let field: string;
    if (text[i] === '"') {
      const pieces: string[] = [];
      let from = ++i;
      for (;;) {
        const q = text.indexOf('"', i);
        const end = q < 0 ? n : q;
        for (let k = i; k < end; k++) {
          const c = text.charCodeAt(k);
          if (c === 10 || (c === 13 && text.charCodeAt(k + 1) !== 10)) line++;
        }
        if (q < 0) {
          pieces.push(text.slice(from, n));
          i = n;
          break;
        }
        if (text[q + 1] === '"') {
          pieces.push(text.slice(from, q + 1));
          i = from = q + 2;
          continue;
        }
        pieces.push(text.slice(from, q));
        i = q + 1;
        break;
      }
      // Text after the closing quote up to the delimiter stays part of the field.
      const rest = i;
      while (i < n && text[i] !== delimiter && text[i] !== "\n" && text[i] !== "\r") i++;
      field = pieces.join("") + text.slice(rest, i);
    } else {
      const start = i;
      while (i < n && text[i] !== delimiter && text[i] !== "\n" && text[i] !== "\r") i++;
      field = text.slice(start, i);
    }
    cells.push(field);
    if (i < n && text[i] === delimiter) {
      i++;
      continue;
    }
    // End of a row (line break or end of text).
    if (!(cells.length === 1 && cells[0].trim() === "")) rows.push({ cells, line: rowLine });
    cells = [];
    if (i >= n) break;
    if (text[i] === "\r" && text[i + 1] === "\n") i++;
    i++;
    rowLine = ++line;
    if (i >= n) break;
  }
  return rows;
}

// The delimiter that splits the most lines into the same number (>1) of fields.
export function sniffDelimiter(text: string): string {
  const sample = text
    .slice(0, 64 * 1024)
    .split(/\r\n|\r|\n/)
    .slice(0, 60);
  let best = ",";
  let bestScore = 0;
  for (const d of [";", ",", "\t", "|"]) {
    const counts = new Map<number, number>();
    for (const l of sample) {
      // Count delimiters outside double quotes.
      let q = false;
      let k = 0;
      for (const ch of l) {
        if (ch === '"') q = !q;
        else if (ch === d && !q) k++;
      }
      if (k > 0) counts.set(k, (counts.get(k) ?? 0) + 1);
    }
    for (const [k, lines] of counts) {
      const score = lines * 1000 + k;
      if (score > bestScore) {
        bestScore = score;
        best = d;
      }
    }
  }
  return best;
}

const norm = (s: string) =>
  s
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/ß/g, "ss")
    .replace(/[^a-z0-9/]+/g, " ")
    .trim();

// Common header names (normalized: lower case, no accents, punctuation as spaces).
const NAMES = {
  date: [
    "buchungstag",
    "buchungsdatum",
    "booking date",
    "transaction date",
    "date",
    "datum",
    "date operation",
    "date de l operation",
    "date comptable",
    "boekdatum",
    "transactiedatum",
    "posted date",
    "posting date",
    "buchung",
  ],
  value_date: ["valuta", "valutadatum", "wertstellung", "wertstellungsdatum", "value date", "date valeur", "date de valeur", "rentedatum", "valutadatum"],
  amount: ["amount", "betrag", "montant", "bedrag", "umsatz", "transaction amount", "betrag eur", "amount eur", "bedrag eur"],
  debit: ["debit", "soll", "belastung", "debit amount", "ausgang", "debet", "withdrawal", "withdrawals", "money out", "paid out", "lastschrift"],
  credit: ["credit", "haben", "gutschrift", "credit amount", "eingang", "deposit", "deposits", "money in", "paid in"],
  credit_debit_indicator: ["af bij", "soll/haben", "s/h", "debit/credit", "credit/debit", "credit debit indicator", "cdtdbtind", "sens"],
  currency: ["currency", "wahrung", "waehrung", "whrg", "devise", "munt", "muntsoort", "ccy"],
  counterparty_name: [
    "beguenstigter/zahlungspflichtiger",
    "begunstigter/zahlungspflichtiger",
    "auftraggeber/empfanger",
    "auftraggeber/beguenstigter",
    "name zahlungsbeteiligter",
    "zahlungspflichtiger",
    "auftraggeber",
    "empfanger",
    "empfaenger",
    "beguenstigter",
    "begunstigter",
    "counterparty",
    "counterparty name",
    "payer",
    "payee",
    "name",
    "naam",
    "naam omschrijving",
    "tegenpartij",
    "nom",
    "contrepartie",
    "tiers",
  ],
  counterparty_account: [
    "iban",
    "iban zahlungsbeteiligter",
    "kontonummer/iban",
    "kontonummer",
    "tegenrekening",
    "counterparty iban",
    "counterparty account",
    "account",
  ],
  remittance: [
    "verwendungszweck",
    "reference",
    "description",
    "omschrijving",
    "mededelingen",
    "libelle",
    "purpose",
    "memo",
    "details",
    "remittance",
    "communication",
    "betreff",
    "text",
    "buchungstext",
  ],
  bank_reference: ["transaction id", "transaction reference", "bank reference", "transaktions id", "buchungsreferenz", "transactiereferentie"],
} as const;

type Role = keyof typeof NAMES;

// No header name is longer than this; a longer cell is no header (and is not normalized).
// Columns past MAX_HEADER_COLUMNS are not guessed (a mapping can still name them).
const MAX_HEADER_CELL = 100;
const MAX_HEADER_COLUMNS = 500;

// The first unused column whose normalized name is one of the role's names or starts with
// one followed by a space. byWords: each cell's whole name and its every prefix ending
// before a space -> the columns that have it, in order (built once per row, so a row of
// thousands of cells costs one pass, not one per name).
function findColumn(byWords: Map<string, number[]>, role: Role, used: Set<number>): number {
  for (const name of NAMES[role]) {
    const i = byWords.get(name)?.find((k) => !used.has(k));
    if (i !== undefined) return i;
  }
  return -1;
}

function wordPrefixes(header: string[]): Map<string, number[]> {
  const byWords = new Map<string, number[]>();
  header.slice(0, MAX_HEADER_COLUMNS).forEach((cell, k) => {
    if (cell.length > MAX_HEADER_CELL) return;
    const x = norm(cell);
    const add = (prefix: string) => {
      const list = byWords.get(prefix);
      if (!list) byWords.set(prefix, [k]);
      else if (list.at(-1) !== k) list.push(k);
    };
    for (let p = x.indexOf(" "); p >= 0; p = x.indexOf(" ", p + 1)) add(x.slice(0, p));
    if (x) add(x);
  });
  return byWords;
}

type Columns = {
  date: number;
  value_date: number;
  amount: number;
  debit: number;
  credit: number;
  credit_debit_indicator: number;
  currency: number;
  counterparty_name: number;
  counterparty_account: number;
  remittance: number[];
  bank_reference: number;
};

function guessColumns(header: string[]): Columns | null {
  const used = new Set<number>();
  const byWords = wordPrefixes(header);
  const take = (role: Role) => {
    const i = findColumn(byWords, role, used);
    if (i >= 0) used.add(i);
    return i;
  };
  let date = take("date");
  const value_date = take("value_date");
  if (date < 0) date = value_date;
  const amount = take("amount");
  const debit = amount < 0 ? take("debit") : -1;
  const credit = amount < 0 ? take("credit") : -1;
  if (date < 0 || (amount < 0 && debit < 0 && credit < 0)) return null;
  return {
    date,
    value_date: value_date === date ? -1 : value_date,
    amount,
    debit,
    credit,
    credit_debit_indicator: take("credit_debit_indicator"),
    currency: take("currency"),
    counterparty_name: take("counterparty_name"),
    counterparty_account: take("counterparty_account"),
    bank_reference: take("bank_reference"),
    remittance: (() => {
      const r = take("remittance");
      return r >= 0 ? [r] : [];
    })(),
  };
}

function resolve(header: string[] | null, col: Col | undefined, name: string): number {
  if (col === undefined) return -1;
  if (typeof col === "number") return col;
  if (!header) throw new StatementError("unreadable", `csv_mapping.${name}: "${col}" names a column, but the file has no header row`);
  const i = header.findIndex((h) => collapse(h).toLowerCase() === collapse(col).toLowerCase());
  if (i < 0)
    throw new StatementError("unreadable", `csv_mapping.${name}: no column "${col}" in the header row (${header.map((h) => `"${collapse(h)}"`).join(", ")})`);
  return i;
}

const DATE_RE: Record<string, [RegExp, (m: RegExpExecArray) => [number, number, number]]> = {
  "YYYY-MM-DD": [/^(\d{4})-(\d{1,2})-(\d{1,2})/, (m) => [+m[1], +m[2], +m[3]]],
  "DD.MM.YYYY": [/^(\d{1,2})\.(\d{1,2})\.(\d{4})/, (m) => [+m[3], +m[2], +m[1]]],
  "DD.MM.YY": [/^(\d{1,2})\.(\d{1,2})\.(\d{2})(?!\d)/, (m) => [2000 + +m[3], +m[2], +m[1]]],
  "DD/MM/YYYY": [/^(\d{1,2})\/(\d{1,2})\/(\d{4})/, (m) => [+m[3], +m[2], +m[1]]],
  "MM/DD/YYYY": [/^(\d{1,2})\/(\d{1,2})\/(\d{4})/, (m) => [+m[3], +m[1], +m[2]]],
  "DD-MM-YYYY": [/^(\d{1,2})-(\d{1,2})-(\d{4})/, (m) => [+m[3], +m[2], +m[1]]],
  "YYYY/MM/DD": [/^(\d{4})\/(\d{1,2})\/(\d{1,2})/, (m) => [+m[1], +m[2], +m[3]]],
  YYYYMMDD: [/^(\d{4})(\d{2})(\d{2})(?!\d)/, (m) => [+m[1], +m[2], +m[3]]],
};

function parseDate(raw: string, format: string): string | null {
  const [re, pick] = DATE_RE[format];
  const m = re.exec(raw.trim());
  if (!m) return null;
  const [y, mo, d] = pick(m);
  return isValidDate(y, mo, d) ? ymd(y, mo, d) : null;
}

function guessDateFormat(values: string[]): string | null {
  const sample = values.filter((v) => v.trim() !== "").slice(0, 200);
  if (sample.length === 0) return null;
  // Day-first before month-first: the formats of European banks, which most of these exports are.
  // The format that reads the most dates (the others get an error naming their line).
  let best: string | null = null;
  let bestCount = 0;
  for (const f of Object.keys(DATE_RE)) {
    const n = sample.filter((v) => parseDate(v, f)).length;
    if (n > bestCount) {
      best = f;
      bestCount = n;
    }
  }
  return best;
}

function guessDecimal(values: string[]): "." | "," {
  let comma = 0;
  let dot = 0;
  for (const v of values.slice(0, 500)) {
    if (v.length > MAX_AMOUNT_TEXT) continue;
    const s = v.replace(/[^\d.,]/g, "");
    if (/,\d{1,2}$/.test(s) || /\.\d{3},/.test(s)) comma++;
    else if (/\.\d{1,2}$/.test(s) || /,\d{3}\./.test(s)) dot++;
  }
  return comma > dot ? "," : ".";
}

const CREDIT_MARKS = new Set(["c", "cr", "crdt", "credit", "h", "haben", "bij", "+", "in", "gutschrift"]);
const DEBIT_MARKS = new Set(["d", "dr", "dbit", "debit", "s", "soll", "af", "-", "out", "lastschrift", "belastung"]);

export function parseCsv(bytes: Uint8Array, mapping?: TCsvMapping): ParsedStatement {
  // Control characters are dropped as in MT940 (lib/bank-statements/text.ts): detectFormat
  // refuses a NUL only in the first 64 KiB and not at all when the client says format=csv,
  // and a NUL in a name or remittance would make PostgreSQL refuse the row (a 500).
  const text = dropControl(decodeText(bytes));
  const delimiter = mapping?.delimiter ?? sniffDelimiter(text);
  const rows = readCsv(text, delimiter);
  if (rows.length === 0) throw new StatementError("unreadable", "line 1: the CSV file is empty");

  let headerIdx = -1; // index in rows
  let cols: Columns | null = null;
  if (mapping) {
    if (mapping.header_row === 0) headerIdx = -1;
    else if (mapping.header_row !== undefined) {
      headerIdx = rows.findIndex((r) => r.line >= (mapping.header_row as number));
      if (headerIdx < 0) throw new StatementError("unreadable", `csv_mapping.header_row: the file has no line ${mapping.header_row}`);
    } else {
      // The first row that holds the mapped date column's name (preamble lines come before it).
      const dateName = typeof mapping.date === "string" ? collapse(mapping.date).toLowerCase() : null;
      headerIdx = dateName ? rows.slice(0, 50).findIndex((r) => r.cells.some((c) => collapse(c).toLowerCase() === dateName)) : -1;
      if (dateName && headerIdx < 0) throw new StatementError("unreadable", `csv_mapping.date: no row among the first 50 has a column "${mapping.date}"`);
    }
    const header = headerIdx >= 0 ? rows[headerIdx].cells : null;
    const remit = mapping.remittance === undefined ? [] : Array.isArray(mapping.remittance) ? mapping.remittance : [mapping.remittance];
    cols = {
      date: resolve(header, mapping.date, "date"),
      value_date: resolve(header, mapping.value_date, "value_date"),
      amount: resolve(header, mapping.amount, "amount"),
      debit: resolve(header, mapping.debit, "debit"),
      credit: resolve(header, mapping.credit, "credit"),
      credit_debit_indicator: resolve(header, mapping.credit_debit_indicator, "credit_debit_indicator"),
      currency: resolve(header, mapping.currency, "currency"),
      counterparty_name: resolve(header, mapping.counterparty_name, "counterparty_name"),
      counterparty_account: resolve(header, mapping.counterparty_account, "counterparty_account"),
      remittance: remit.map((c, k) => resolve(header, c, `remittance[${k}]`)),
      bank_reference: resolve(header, mapping.bank_reference, "bank_reference"),
    };
  } else {
    for (let i = 0; i < Math.min(rows.length, 50) && !cols; i++) {
      const c = guessColumns(rows[i].cells);
      if (c) {
        cols = c;
        headerIdx = i;
      }
    }
    if (!cols) throw new StatementError("unreadable", "line 1: could not find the date/amount columns; send csv_mapping");
  }
  const header = headerIdx >= 0 ? rows[headerIdx].cells : null;
  const data = rows.slice(headerIdx + 1);
  const cell = (r: Row, i: number) => (i >= 0 && i < r.cells.length ? r.cells[i] : "");

  // The account: from the mapping, else an IBAN in the preamble lines ("Konto;DE12 ...").
  let iban = "";
  let identifier = "";
  const acct = mapping?.account?.replace(/\s+/g, "").toUpperCase();
  if (acct) {
    if (isIban(acct)) iban = acct;
    else identifier = mapping?.account?.trim() ?? "";
  } else {
    for (const r of rows.slice(0, Math.max(headerIdx, 0))) {
      for (const c of r.cells) {
        const m = /\b([A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?)\b/.exec(c.toUpperCase());
        const v = m?.[1].replace(/ /g, "");
        if (v && isIban(v)) iban ||= v;
      }
    }
  }

  const dateFormat = mapping?.date_format ?? guessDateFormat(data.map((r) => cell(r, cols.date)).filter((v) => /\d/.test(v)));
  if (!dateFormat) {
    const r = data.find((x) => cell(x, cols.date).trim() !== "");
    throw new StatementError(
      "unreadable",
      `line ${r?.line ?? 1}: the dates ("${cell(r ?? data[0], cols.date)}") match none of ${Object.keys(DATE_RE).join(", ")}; send csv_mapping.date_format`,
    );
  }
  const amountCols = [cols.amount, cols.debit, cols.credit].filter((c) => c >= 0);
  const decimal = mapping?.decimal_separator ?? guessDecimal(data.flatMap((r) => amountCols.map((c) => cell(r, c))));

  // A currency code in the amount column's header ("Betrag (EUR)") when there is no currency column.
  let headerCurrency = "";
  if (header && amountCols.length) {
    const m = /\b(EUR|USD|CHF|GBP|SEK|NOK|DKK|PLN|CZK|HUF|JPY|CAD|AUD)\b/.exec(
      amountCols
        .map((c) => header[c] ?? "")
        .join(" ")
        .toUpperCase(),
    );
    headerCurrency = m?.[1] ?? "";
  }
  const fixedCurrency = mapping?.fixed_currency ?? "";

  const transactions: ParsedTransaction[] = [];
  for (const r of data) {
    const rawDate = cell(r, cols.date).trim();
    const amountCells = amountCols.map((c) => cell(r, c).trim());
    if (rawDate === "" && amountCells.every((v) => v === "")) continue;
    const bookedOn = parseDate(rawDate, dateFormat);
    if (!bookedOn) {
      // Footer lines ("Kontostand am ...;;;1.234,56") have no date and fewer cells; a data row
      // with a bad date is an error.
      if (!/\d/.test(rawDate) || (header && r.cells.length < header.length) || amountCells.every((v) => v === "")) continue;
      throw new StatementError("unreadable", `line ${r.line}: date "${rawDate}" does not match ${dateFormat}`);
    }
    let amount: string;
    let negative: boolean;
    const parse = (raw: string, what: string) => {
      const p = parseHumanAmount(raw, decimal);
      if (!p) throw new StatementError("unreadable", `line ${r.line}: ${what} "${raw}" is not an amount (decimal separator "${decimal}")`);
      return p;
    };
    if (cols.amount >= 0) {
      const p = parse(cell(r, cols.amount), "amount");
      amount = p.value;
      negative = p.negative;
    } else {
      const d = cols.debit >= 0 ? cell(r, cols.debit).trim() : "";
      const c = cols.credit >= 0 ? cell(r, cols.credit).trim() : "";
      const dp = d ? parse(d, "debit") : null;
      const cp = c ? parse(c, "credit") : null;
      const nonZero = (p: { value: string } | null) => p !== null && /[1-9]/.test(p.value);
      if (nonZero(dp) && nonZero(cp)) throw new StatementError("unreadable", `line ${r.line}: both debit "${d}" and credit "${c}" are set`);
      if (nonZero(dp) || (dp && !cp)) {
        amount = (dp as { value: string }).value;
        negative = true;
      } else if (cp) {
        amount = cp.value;
        negative = false;
      } else {
        throw new StatementError("unreadable", `line ${r.line}: neither debit nor credit has an amount`);
      }
    }
    if (cols.credit_debit_indicator >= 0) {
      const mark = collapse(cell(r, cols.credit_debit_indicator)).toLowerCase();
      if (CREDIT_MARKS.has(mark)) negative = false;
      else if (DEBIT_MARKS.has(mark)) negative = true;
      else throw new StatementError("unreadable", `line ${r.line}: credit/debit indicator "${mark}" is neither credit nor debit`);
    }
    // Last resort: a code written in the amount cell itself ("1.234,56 EUR").
    const cellCurrency = /\b([A-Z]{3})\b/.exec(amountCells.join(" ").toUpperCase())?.[1] ?? "";
    const currency = (cols.currency >= 0 ? collapse(cell(r, cols.currency)).toUpperCase() : "") || fixedCurrency || headerCurrency || cellCurrency;
    if (!/^[A-Z]{3}$/.test(currency)) {
      throw new StatementError(
        "unreadable",
        currency
          ? `line ${r.line}: currency "${currency}" is not an ISO 4217 code`
          : `line ${r.line}: no currency; map a currency column or set csv_mapping.fixed_currency`,
      );
    }
    const valueOn = cols.value_date >= 0 ? (parseDate(cell(r, cols.value_date), dateFormat) ?? "") : "";
    const ref = collapse(cell(r, cols.bank_reference));
    transactions.push({
      index: transactions.length,
      direction: negative ? "outgoing" : "incoming",
      amount,
      currency,
      bookedOn,
      valueOn,
      counterpartyName: collapse(cell(r, cols.counterparty_name)),
      counterpartyAccount: collapse(cell(r, cols.counterparty_account)).replace(/^([A-Z]{2}\d{2})[ A-Z0-9]+$/, (m) => m.replace(/ /g, "")),
      structuredReference: "",
      unstructured: collapse(cols.remittance.map((c) => cell(r, c)).join(" ")),
      accountServicerReference: ref,
      uetr: "",
      endToEndId: "",
      bankTransactionCode: "",
    });
    tooMany(transactions.length);
  }
  let from = "";
  let to = "";
  for (const t of transactions) {
    if (!from || t.bookedOn < from) from = t.bookedOn;
    if (!to || t.bookedOn > to) to = t.bookedOn;
  }
  const currencies = new Set(transactions.map((t) => t.currency));
  return {
    format: "csv",
    account: { iban, identifier, currency: currencies.size === 1 ? [...currencies][0] : "" },
    period: { from, to },
    transactions,
  };
}
