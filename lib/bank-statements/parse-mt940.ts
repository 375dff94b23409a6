// SWIFT MT940 customer statements, as banks export them: several statements per file, SWIFT
// block headers or bank preamble lines, CRLF or LF, empty lines, "-" terminators. :86: is read
// as German structured (?00..?63 with SEPA keywords SVWZ+ EREF+ ...), Dutch tagged
// (/EREF/ /REMI/ /NAME/ ...) or free text.

import { trimChar, trimEndChar } from "@/lib/strings";
import { collapse, decodeText, dropControl, isIban, isValidDate, plainDecimal, tooMany, ymd } from "./text";
import { type ParsedStatement, type StatementBalance, type ParsedTransaction, StatementError } from "./types";

type Tag = { tag: string; lines: string[]; line: number };

// :NS: is a bank-specific tag some German banks add; it is recognized (so it does not extend
// the :86: before it) and ignored.
const TAG_LINE = /^:(\d{2}[A-Z]?|NS):(.*)$/;
const TERMINATOR = /^-(\s*$|XXX|\})/;

// Splits the text into tags with their continuation lines. Lines before the first tag (SWIFT
// {1:...} headers, "ABNANL2A" / "940" preambles, ":940:") and after a "-" terminator are skipped.
function tags(text: string): Tag[] {
  const out: Tag[] = [];
  let cur: Tag | null = null;
  const lines = text.split(/\r\n|\r|\n/);
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i];
    // Control characters (binary garbage in some exports) are dropped; tabs stay as spaces.
    const line = dropControl(raw);
    const m = TAG_LINE.exec(line);
    if (m) {
      cur = { tag: m[1], lines: [m[2]], line: i + 1 };
      out.push(cur);
    } else if (TERMINATOR.test(line)) {
      cur = null;
    } else if (cur && line.trim() !== "") {
      cur.lines.push(line);
    }
  }
  return out;
}

// YYMMDD -> YYYY-MM-DD (years 70-99 are 19xx, the rest 20xx).
function date6(s: string): string | null {
  const y = +s.slice(0, 2);
  const yyyy = y >= 70 ? 1900 + y : 2000 + y;
  const m = +s.slice(2, 4);
  const d = +s.slice(4, 6);
  return isValidDate(yyyy, m, d) ? ymd(yyyy, m, d) : null;
}

// The entry date has no year: the one of value year -1, 0, +1 nearest to the value date
// (a booking on 31 Dec with value 2 Jan, or the other way round).
function entryDate(valueOn: string, mmdd: string): string | null {
  const vy = +valueOn.slice(0, 4);
  const m = +mmdd.slice(0, 2);
  const d = +mmdd.slice(2, 4);
  let best: string | null = null;
  let bestDist = Number.POSITIVE_INFINITY;
  for (const y of [vy - 1, vy, vy + 1]) {
    if (!isValidDate(y, m, d)) continue;
    const dist = Math.abs(Date.UTC(y, m - 1, d) - Date.parse(`${valueOn}T00:00:00Z`));
    if (dist < bestDist) {
      best = ymd(y, m, d);
      bestDist = dist;
    }
  }
  return best;
}

const BALANCE = /^([CD])(\d{6})([A-Z]{3})(\d[\d,]*)$/;
const LINE_61 = /^(\d{6})(\d{4})?(RC|RD|C|D)([A-Z])?(\d[\d,]*)([NFS][A-Z0-9]{3})(.*)$/;

const noRef = (s: string) => (/^(NONREF|NOTPROVIDED)$/i.test(s) ? "" : s);

type Info = {
  counterpartyName: string;
  counterpartyAccount: string;
  structuredReference: string;
  unstructured: string;
  endToEndId: string;
};

// MTLG: is no SEPA keyword, but banks start their own message with it; it ends the section before it.
const SEPA_KEYS = /(EREF|KREF|MREF|CRED|DEBT|SVWZ|ABWA|ABWE|IBAN|BIC|COAM|OAMT)\+|(MTLG):/g;

// German "Mehrzweckfeld": GVC (3 digits), then ?NN subfields (some banks use > instead of ?).
function germanInfo(s: string): Info {
  const sep = s[3];
  const fields = new Map<string, string>();
  const re = sep === ">" ? />(\d{2})/g : /\?(\d{2})/g;
  const marks = [...s.matchAll(re)];
  marks.forEach((m, k) => {
    const start = (m.index ?? 0) + 3;
    const end = k + 1 < marks.length ? (marks[k + 1].index ?? s.length) : s.length;
    fields.set(m[1], (fields.get(m[1]) ?? "") + s.slice(start, end));
  });
  const f = (...keys: string[]) => keys.map((k) => fields.get(k) ?? "").join("");
  const purposeKeys = ["20", "21", "22", "23", "24", "25", "26", "27", "28", "29", "60", "61", "62", "63"];
  // SEPA remittance (with keywords) is one text cut into subfields, often mid-word:
  // concatenated without separator. Older (DTAUS) texts are lines of their own, joined with
  // spaces, unless a full 27-character line breaks a word or number in two.
  const sepa = purposeKeys.some((k) => /^(EREF|KREF|MREF|CRED|DEBT|SVWZ|ABWA|ABWE)\+/.test(fields.get(k) ?? ""));
  const parts = purposeKeys.map((k) => fields.get(k) ?? "").filter((v) => v !== "");
  let purpose = parts[0] ?? "";
  for (let k = 1; k < parts.length; k++) {
    const prev = parts[k - 1];
    const cut = prev.length >= 27 && /(\p{L}\p{L}|\d\d)/u.test(`${prev.slice(-1)}${parts[k][0]}`);
    purpose += (sepa || cut ? "" : " ") + parts[k];
  }
  const sections = new Map<string, string>();
  const keys = [...purpose.matchAll(SEPA_KEYS)];
  keys.forEach((m, k) => {
    const start = (m.index ?? 0) + m[0].length;
    const end = k + 1 < keys.length ? (keys[k + 1].index ?? purpose.length) : purpose.length;
    const key = m[1] ?? m[2];
    if (!sections.has(key)) sections.set(key, collapse(purpose.slice(start, end)));
  });
  const eref = sections.get("EREF") ?? "";
  return {
    counterpartyName: collapse(f("32", "33")) || sections.get("ABWA") || sections.get("ABWE") || "",
    counterpartyAccount: collapse(f("38")) || collapse(f("31")),
    structuredReference: "",
    unstructured: sections.get("SVWZ") ?? collapse(purpose),
    endToEndId: noRef(eref),
  };
}

const NL_TAGS =
  /\/(EREF|REMI|NAME|ORDP|BENM|IBAN|BIC|ADDR|ISDT|CSID|MARF|TRTP|RTRN|PREF|ULTC|ULTD|ULTB|PURP|CNTP|ID|SVCL|CDTRREF|CDTRREFTP|FX|EXCH|CHGS|MARF|TRCD|BUSP|NRTX)\//g;

// Dutch banks (ING, Rabobank, ABN AMRO SEPA): /TAG/value/TAG/value, parties as /ORDP//NAME/x or /BENM//NAME/x.
function dutchInfo(s: string): Info {
  const found = [...s.matchAll(NL_TAGS)];
  const values: Array<[string, string]> = found.map((m, k) => {
    const start = (m.index ?? 0) + m[0].length;
    const end = k + 1 < found.length ? (found[k + 1].index ?? s.length) : s.length;
    return [m[1], trimChar(s.slice(start, end), "/")];
  });
  const get = (tag: string) => values.find(([t]) => t === tag)?.[1] ?? "";
  let unstructured = "";
  let structured = "";
  const remi = get("REMI");
  const ustd = /^USTD\/\/?(.*)$/s.exec(remi);
  const strd = /^STRD\/(?:[A-Z]{3,4}\/)*(.*)$/s.exec(remi);
  if (ustd) unstructured = ustd[1];
  else if (strd) structured = trimEndChar(strd[1], "/");
  else unstructured = remi;
  return {
    counterpartyName: collapse(get("NAME")),
    counterpartyAccount: collapse(get("IBAN")),
    structuredReference: collapse(structured),
    unstructured: collapse(unstructured),
    endToEndId: noRef(collapse(get("EREF"))),
  };
}

// SWIFT wraps lines at 65 characters: a full line continues mid-word on the next one, a shorter
// line ended where the writer ended it.
function joinWrapped(tag: Tag): string {
  let out = "";
  tag.lines.forEach((l, k) => {
    if (k > 0) {
      const prevLen = k === 1 ? tag.lines[0].length + tag.tag.length + 2 : tag.lines[k - 1].length;
      out += prevLen >= 65 ? "" : " ";
    }
    out += l;
  });
  return out;
}

function info86(tag: Tag): Info {
  const first = tag.lines[0].trimStart();
  if (/^\d{3}[?>]\d{2}/.test(first)) return germanInfo([first, ...tag.lines.slice(1)].join(""));
  const joined = joinWrapped(tag).trim();
  NL_TAGS.lastIndex = 0;
  if (joined.startsWith("/") && NL_TAGS.test(joined)) {
    NL_TAGS.lastIndex = 0;
    return dutchInfo(joined);
  }
  return { counterpartyName: "", counterpartyAccount: "", structuredReference: "", unstructured: collapse(joined), endToEndId: "" };
}

type Stmt = {
  account: ParsedStatement["account"];
  from: string;
  to: string;
  txs: Array<{ t: Omit<ParsedTransaction, "index" | "currency">; line: number }>;
  opening?: StatementBalance;
  closing?: StatementBalance;
};

function account25(raw: string): ParsedStatement["account"] {
  let v = collapse(raw).replace(/ /g, "");
  let currency = "";
  const m = /^(.*\d)([A-Z]{3})$/.exec(v);
  if (m && !isIban(v)) {
    v = m[1];
    currency = m[2];
  }
  // Shape only: test files (and some banks' sandbox exports) carry IBANs with wrong check digits.
  return /^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(v) ? { iban: v, identifier: "", currency } : { iban: "", identifier: v, currency };
}

export function parseMt940(bytes: Uint8Array): ParsedStatement {
  const list = tags(decodeText(bytes));
  const stmts: Stmt[] = [];
  let cur: Stmt | null = null;
  let last: ParsedTransaction | null = null;
  let lastTag = "";
  let count = 0;
  const fresh = (): Stmt => {
    const s: Stmt = { account: { iban: "", identifier: "", currency: "" }, from: "", to: "", txs: [] };
    stmts.push(s);
    return s;
  };
  for (const tag of list) {
    const content = tag.lines[0].trim();
    const at = `line ${tag.line}: :${tag.tag}:`;
    switch (tag.tag) {
      case "20":
        cur = fresh();
        last = null;
        break;
      case "25": {
        if (cur && cur.txs.length > 0 && (lastTag === "61" || lastTag === "86")) {
          throw new StatementError("unreadable", `${at} (account identification) comes after a :61: statement line; expected :86:, :61: or :62F:`);
        }
        cur ??= fresh();
        const a = account25([content, ...tag.lines.slice(1)].join(""));
        cur.account = { ...a, currency: a.currency || cur.account.currency };
        break;
      }
      case "60F":
      case "60M":
      case "62F":
      case "62M": {
        cur ??= fresh();
        const m = BALANCE.exec(content);
        const day = m ? date6(m[2]) : null;
        if (!m || !day || plainDecimal(m[4], ",") === null) {
          throw new StatementError("unreadable", `${at} expected a balance like C070903EUR766656,49, got "${content.slice(0, 40)}"`);
        }
        cur.account.currency ||= m[3];
        const balance = { amount: plainDecimal(m[4], ",") ?? "0", credit: m[1] === "C", on: day, currency: m[3] };
        if (tag.tag === "60F" || (tag.tag === "60M" && !cur.opening)) cur.opening ??= balance;
        if (tag.tag === "62F" || tag.tag === "62M") cur.closing = balance;
        if (tag.tag.startsWith("60") && (!cur.from || day < cur.from)) cur.from = day;
        if (tag.tag.startsWith("62") && (!cur.to || day > cur.to)) cur.to = day;
        break;
      }
      case "34F": {
        // MT942 (interim report): its floor limit names the currency when no balance does.
        cur ??= fresh();
        cur.account.currency ||= /^([A-Z]{3})/.exec(content)?.[1] ?? "";
        break;
      }
      case "61": {
        cur ??= fresh();
        const m = LINE_61.exec(content);
        if (!m)
          throw new StatementError(
            "unreadable",
            `${at} expected a statement line like 0709070904CR50990,05NTRFNONREF//0724710333343453, got "${content.slice(0, 60)}"`,
          );
        const valueOn = date6(m[1]);
        if (!valueOn) throw new StatementError("unreadable", `${at} "${m[1]}" is not a valid value date (YYMMDD)`);
        const bookedOn = m[2] ? entryDate(valueOn, m[2]) : valueOn;
        if (!bookedOn) throw new StatementError("unreadable", `${at} "${m[2]}" is not a valid entry date (MMDD)`);
        const amount = plainDecimal(m[5], ",");
        if (amount === null) throw new StatementError("unreadable", `${at} "${m[5]}" is not an amount`);
        const mark = m[3];
        // C: credit; D: debit; RC: reversal of a credit (money goes out); RD: reversal of a debit (money comes back).
        const direction = mark === "C" || mark === "RD" ? "incoming" : "outgoing";
        const rest = m[7];
        let customerRef: string;
        let bankRef = "";
        let supplementary = "";
        const slash = rest.indexOf("//");
        if (slash >= 0) {
          customerRef = rest.slice(0, slash).trim();
          bankRef = rest.slice(slash + 2, slash + 18).trim();
          supplementary = rest.slice(slash + 18).trim();
        } else {
          customerRef = rest.slice(0, 16).trim();
          supplementary = rest.slice(16).trim();
        }
        void customerRef;
        const t: Omit<ParsedTransaction, "index" | "currency"> = {
          direction,
          amount,
          bookedOn,
          valueOn,
          // Old Rabobank exports put the counterparty's name after the 16-character reference.
          counterpartyName: collapse(supplementary),
          counterpartyAccount: "",
          structuredReference: "",
          unstructured: "",
          accountServicerReference: noRef(bankRef),
          uetr: "",
          endToEndId: "",
          bankTransactionCode: m[6],
        };
        cur.txs.push({ t, line: tag.line });
        last = t as ParsedTransaction;
        count++;
        tooMany(count);
        break;
      }
      case "86": {
        // :86: after :61: belongs to that transaction (Rabobank sends several); elsewhere it is
        // statement information (e.g. ING's totals after :62F:).
        if (last && (lastTag === "61" || lastTag === "86")) {
          const i = info86(tag);
          if (lastTag === "86") {
            last.unstructured = collapse(`${last.unstructured} ${i.unstructured}`);
          } else {
            last.counterpartyName = i.counterpartyName || last.counterpartyName;
            last.counterpartyAccount = i.counterpartyAccount;
            last.structuredReference = i.structuredReference;
            last.unstructured = i.unstructured;
            last.endToEndId = i.endToEndId;
          }
        }
        break;
      }
      default:
        break;
    }
    lastTag = tag.tag;
  }

  const nonEmpty = stmts.filter((s) => s.txs.length > 0 || s.account.iban || s.account.identifier);
  const first = nonEmpty[0] ?? stmts[0];
  const account = first ? first.account : { iban: "", identifier: "", currency: "" };
  const transactions: ParsedTransaction[] = [];
  let from = "";
  let to = "";
  for (const s of stmts) {
    if (s.from && (!from || s.from < from)) from = s.from;
    if (s.to && (!to || s.to > to)) to = s.to;
    const differs = s.account.iban !== account.iban || s.account.identifier !== account.identifier || s.account.currency !== account.currency;
    for (const { t, line } of s.txs) {
      if (!s.account.currency) {
        throw new StatementError(
          "unreadable",
          `line ${line}: :61: transaction without a currency: the statement has no :60F:/:60M: opening balance or currency in :25:`,
        );
      }
      const tx: ParsedTransaction = { index: transactions.length, ...t, currency: s.account.currency };
      if (differs) tx.account = s.account;
      transactions.push(tx);
    }
  }
  const opening = stmts.find((s) => s.opening)?.opening ?? null;
  const closing = [...stmts].reverse().find((s) => s.closing)?.closing ?? null;
  return { format: "mt940", account, period: { from, to }, transactions, balances: { opening, closing } };
}
