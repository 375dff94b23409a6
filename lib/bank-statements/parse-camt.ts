// ISO 20022 camt.053 (BkToCstmrStmt/Stmt) and camt.054 (BkToCstmrDbtCdtNtfctn/Ntfctn),
// any version .001.02 and later (element names used here are stable across versions; v8 nests
// party names under Pty, read both). Booked entries only; batch bookings split into TxDtls.

import { XMLValidator } from "fast-xml-parser";
import { MAX_XML_DEPTH, safeXmlParser as parser } from "@/lib/xml/safe-parser";
import { scanXml } from "@/lib/xml/scan";
import { collapse, decodeText, isoDatePart, plainDecimal, tooMany } from "./text";
import { type ParsedStatement, type ParsedTransaction, type StatementBalance, StatementError } from "./types";

// biome-ignore lint/suspicious/noExplicitAny: the parsed XML tree is untyped by nature
type Node = any;

const all = (node: Node, name: string): Node[] => {
  if (node == null || typeof node !== "object") return [];
  const v = node[name];
  return v == null ? [] : Array.isArray(v) ? v : [v];
};
const one = (node: Node, ...path: string[]): Node => {
  let cur = node;
  for (const p of path) {
    cur = all(cur, p)[0];
    if (cur == null) return undefined;
  }
  return cur;
};
const text = (node: Node): string => {
  if (node == null) return "";
  if (typeof node === "string") return node.trim();
  if (typeof node === "object" && "#text" in node) return String(node["#text"]).trim();
  return "";
};
const txt = (node: Node, ...path: string[]): string => text(one(node, ...path));

// XML entities are not expanded (processEntities: false), but the escapes every XML writer
// produces for & < > " ' and numeric references are part of the text itself.
function unescapeXml(s: string): string {
  if (!s.includes("&")) return s;
  return s.replace(/&(#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos);/g, (m, e: string) => {
    if (e === "amp") return "&";
    if (e === "lt") return "<";
    if (e === "gt") return ">";
    if (e === "quot") return '"';
    if (e === "apos") return "'";
    const cp = e[1] === "x" ? Number.parseInt(e.slice(2), 16) : Number.parseInt(e.slice(1), 10);
    return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : m;
  });
}
const clean = (s: string) => collapse(unescapeXml(s));

export function refuseDoctype(xml: string): void {
  const m = /<!(DOCTYPE|ENTITY)/i.exec(xml);
  if (m) {
    const line = xml.slice(0, m.index).split("\n").length;
    throw new StatementError(
      "unreadable",
      `line ${line}: <!${m[1].toUpperCase()}> is not allowed in a statement (document type declarations and entities are refused)`,
    );
  }
}

function partyName(p: Node): string {
  if (!p) return "";
  return clean(txt(p, "Nm") || txt(p, "Pty", "Nm") || txt(p, "Agt", "FinInstnId", "Nm"));
}
function accountId(a: Node): string {
  if (!a) return "";
  return clean(txt(a, "Id", "IBAN") || txt(a, "Id", "Othr", "Id"));
}
function dateOf(node: Node): string {
  if (!node) return "";
  return isoDatePart(txt(node, "Dt") || txt(node, "DtTm")) ?? "";
}
function bankCode(node: Node): string {
  const b = one(node, "BkTxCd");
  if (!b) return "";
  const domn = txt(b, "Domn", "Cd");
  if (domn) return [domn, txt(b, "Domn", "Fmly", "Cd"), txt(b, "Domn", "Fmly", "SubFmlyCd")].filter(Boolean).join("/");
  return clean(txt(b, "Prtry", "Cd"));
}
function amountOf(node: Node): { value: string; currency: string } | null {
  if (!node) return null;
  const raw = text(node);
  const value = plainDecimal(raw, ".");
  return value === null
    ? null
    : {
        value,
        currency: String(node["@_Ccy"] ?? "")
          .trim()
          .toUpperCase(),
      };
}

// A statement's booked balance of a type (OPBD opening, else PRCD the previous closing;
// CLBD closing), or null.
function balanceOf(stmt: Node, codes: string[]): StatementBalance | null {
  for (const code of codes) {
    const bal = all(stmt, "Bal").find((b) => txt(b, "Tp", "CdOrPrtry", "Cd").toUpperCase() === code);
    const amt = bal ? amountOf(one(bal, "Amt")) : null;
    if (bal && amt) return { amount: amt.value, credit: txt(bal, "CdtDbtInd").toUpperCase() !== "DBIT", on: dateOf(one(bal, "Dt")), currency: amt.currency };
  }
  return null;
}

type Details = {
  counterpartyName: string;
  counterpartyAccount: string;
  structuredReference: string;
  unstructured: string;
  accountServicerReference: string;
  uetr: string;
  endToEndId: string;
  bankTransactionCode: string;
};

function details(tx: Node, incomingMoney: boolean, reversal: boolean): Details {
  const rp = one(tx, "RltdPties");
  // The other party of a credit is its debtor; a reversal of a credit (booked as a debit) still
  // names the original debtor, so the role follows the original payment.
  const debtorSide = incomingMoney !== reversal;
  const name = debtorSide ? partyName(one(rp, "Dbtr")) || partyName(one(rp, "UltmtDbtr")) : partyName(one(rp, "Cdtr")) || partyName(one(rp, "UltmtCdtr"));
  const account = debtorSide ? accountId(one(rp, "DbtrAcct")) : accountId(one(rp, "CdtrAcct"));
  const rmt = all(tx, "RmtInf");
  const ustrd: string[] = [];
  let structured = "";
  for (const r of rmt) {
    for (const u of all(r, "Ustrd")) ustrd.push(text(u));
    for (const s of all(r, "Strd")) {
      for (const c of all(s, "CdtrRefInf")) if (!structured) structured = clean(txt(c, "Ref"));
      for (const a of all(s, "AddtlRmtInf")) ustrd.push(text(a));
    }
  }
  const e2e = clean(txt(tx, "Refs", "EndToEndId"));
  return {
    counterpartyName: name,
    counterpartyAccount: account,
    structuredReference: structured,
    unstructured: clean(ustrd.filter(Boolean).join(" ")),
    accountServicerReference: clean(txt(tx, "Refs", "AcctSvcrRef")),
    uetr: clean(txt(tx, "Refs", "UETR")),
    endToEndId: e2e.toUpperCase() === "NOTPROVIDED" ? "" : e2e,
    bankTransactionCode: bankCode(tx),
  };
}

export function parseCamt(bytes: Uint8Array, kind: "camt.053" | "camt.054"): ParsedStatement {
  const xml = decodeText(bytes);
  refuseDoctype(xml);
  // Depth and "<" inside a tag by a linear scan first: the validator and the parser take
  // quadratic time on runs of unclosed tags.
  const { depth, problem, at = 0 } = scanXml(xml, MAX_XML_DEPTH);
  if (problem) {
    const line = xml.slice(0, at).split("\n").length;
    const column = at - xml.lastIndexOf("\n", at - 1);
    throw new StatementError("unreadable", `line ${line}, column ${column}: the XML is malformed (${problem})`);
  }
  if (depth > MAX_XML_DEPTH) throw new StatementError("unreadable", `the XML nests deeper than ${MAX_XML_DEPTH} elements`);
  const valid = XMLValidator.validate(xml);
  if (valid !== true) {
    const e = valid.err;
    throw new StatementError("unreadable", `line ${e.line}, column ${e.col}: the XML is malformed (${e.msg})`);
  }
  let doc: Node;
  try {
    doc = parser.parse(xml);
  } catch (e) {
    // the shared parser bounds nesting (MAX_XML_DEPTH); a statement is never that deep
    throw new StatementError("unreadable", `the XML could not be read (${(e as Error).message.slice(0, 200)})`);
  }
  // Some exports omit the Document wrapper and start at the message element.
  const root = one(doc, "Document") ?? doc;
  const containerName = kind === "camt.053" ? "BkToCstmrStmt" : "BkToCstmrDbtCdtNtfctn";
  const stmtName = kind === "camt.053" ? "Stmt" : "Ntfctn";
  const container = one(root, containerName);
  if (!container) throw new StatementError("unreadable", `Document/${containerName}: element missing (not a ${kind} message)`);
  const stmts = all(container, stmtName);
  if (stmts.length === 0) throw new StatementError("unreadable", `Document/${containerName}: no ${stmtName} element (the message holds no statement)`);
  const groupDate = isoDatePart(txt(container, "GrpHdr", "CreDtTm")) ?? "";

  const transactions: ParsedTransaction[] = [];
  let first: ParsedStatement["account"] | null = null;
  let from = "";
  let to = "";
  let opening: StatementBalance | null = null;
  let closing: StatementBalance | null = null;
  stmts.forEach((stmt, si) => {
    opening ??= balanceOf(stmt, ["OPBD", "PRCD"]);
    closing = balanceOf(stmt, ["CLBD"]) ?? closing;
    const sPath = `${containerName}/${stmtName}[${si + 1}]`;
    const acct = one(stmt, "Acct");
    const account = {
      iban: clean(txt(acct, "Id", "IBAN")).replace(/ /g, ""),
      identifier: clean(txt(acct, "Id", "Othr", "Id")),
      currency: txt(acct, "Ccy").toUpperCase(),
    };
    if (!first) first = account;
    const differs = first.iban !== account.iban || first.identifier !== account.identifier || first.currency !== account.currency;
    const f = isoDatePart(txt(stmt, "FrToDt", "FrDtTm")) ?? "";
    const t = isoDatePart(txt(stmt, "FrToDt", "ToDtTm")) ?? "";
    if (f && (!from || f < from)) from = f;
    if (t && (!to || t > to)) to = t;
    const stmtDate = isoDatePart(txt(stmt, "CreDtTm")) ?? groupDate;

    all(stmt, "Ntry").forEach((ntry, ni) => {
      const nPath = `${sPath}/Ntry[${ni + 1}]`;
      const stsNode = one(ntry, "Sts");
      const sts = (text(stsNode) || txt(stsNode, "Cd")).toUpperCase();
      // Pending (PDNG) and information-only (INFO) entries are not money that moved. An entry
      // without status (not schema-valid, but seen in hand-made files) counts as booked.
      if (sts && sts !== "BOOK") return;
      const amt = amountOf(one(ntry, "Amt"));
      if (!amt) throw new StatementError("unreadable", `${nPath}/Amt: missing or not a decimal amount`);
      const cdi = txt(ntry, "CdtDbtInd").toUpperCase();
      if (cdi !== "CRDT" && cdi !== "DBIT") throw new StatementError("unreadable", `${nPath}/CdtDbtInd: expected CRDT or DBIT, got "${cdi}"`);
      const reversal = txt(ntry, "RvslInd").toLowerCase() === "true";
      const bookedOn = dateOf(one(ntry, "BookgDt"));
      const valueOn = dateOf(one(ntry, "ValDt"));
      // camt.054 notifications may carry no dates at all; the message's creation date is then the best day we know.
      const day = bookedOn || valueOn || stmtDate;
      if (!day) throw new StatementError("unreadable", `${nPath}/BookgDt: the entry has no booking date, value date or statement date`);
      const entryRef = clean(txt(ntry, "AcctSvcrRef"));
      const entryCode = bankCode(ntry);
      const currencyOf = (a: { currency: string }) => a.currency || account.currency;
      if (!currencyOf(amt)) throw new StatementError("unreadable", `${nPath}/Amt: no Ccy attribute and no account currency`);
      const txs = all(ntry, "NtryDtls").flatMap((d) => all(d, "TxDtls"));
      const push = (t: Omit<ParsedTransaction, "index">) => {
        const tx: ParsedTransaction = { index: transactions.length, ...t };
        if (differs) tx.account = account;
        transactions.push(tx);
        tooMany(transactions.length);
      };
      const base = (dir: "incoming" | "outgoing", amount: { value: string; currency: string }) => ({
        direction: dir,
        amount: amount.value,
        currency: currencyOf(amount),
        bookedOn: day,
        valueOn,
      });
      const entryDir = cdi === "CRDT" ? "incoming" : "outgoing";
      const splitAmounts = txs.map((tx) => amountOf(one(tx, "Amt")) ?? amountOf(one(tx, "AmtDtls", "TxAmt", "Amt")));

      if (txs.length > 1 && splitAmounts.every(Boolean)) {
        // A batch booking: one payment per transaction, each with its own amount and, when
        // given, its own credit/debit indicator.
        txs.forEach((tx, k) => {
          const own = txt(tx, "CdtDbtInd").toUpperCase();
          const dir = own === "CRDT" ? "incoming" : own === "DBIT" ? "outgoing" : entryDir;
          const d = details(tx, dir === "incoming", reversal);
          push({
            ...base(dir, splitAmounts[k] as { value: string; currency: string }),
            ...d,
            accountServicerReference: d.accountServicerReference || entryRef,
            bankTransactionCode: d.bankTransactionCode || entryCode,
          });
        });
        return;
      }
      // One transaction (or a batch whose details carry no amounts, which cannot be split):
      // the entry amount is what moved on the account; a single TxDtls/Amt may be the
      // instructed amount in another currency.
      const ds = txs.map((tx) => details(tx, entryDir === "incoming", reversal));
      const firstOf = (k: keyof Details) => ds.find((d) => d[k])?.[k] ?? "";
      const same = (k: keyof Details) => (ds.length > 0 && ds.every((d) => d[k] === ds[0][k]) ? ds[0][k] : "");
      const unstructured =
        ds
          .map((d) => d.unstructured)
          .filter(Boolean)
          .join(" ") || clean(txt(ntry, "AddtlNtryInf"));
      push({
        ...base(entryDir, amt),
        counterpartyName: firstOf("counterpartyName"),
        counterpartyAccount: firstOf("counterpartyAccount"),
        structuredReference: firstOf("structuredReference"),
        unstructured,
        accountServicerReference: entryRef || (ds.length === 1 ? ds[0].accountServicerReference : ""),
        uetr: same("uetr"),
        endToEndId: same("endToEndId"),
        bankTransactionCode: entryCode || firstOf("bankTransactionCode"),
      });
    });
  });
  return { format: kind, account: first ?? { iban: "", identifier: "", currency: "" }, period: { from, to }, transactions, balances: { opening, closing } };
}
