import { AppError } from "@/lib/errors";
import { minorDigits } from "@/lib/money/format";
import { CURRENCIES, ZDate } from "@/lib/schemas/common";
import { ZRegisterObligation, type TRegisterObligation } from "@/lib/schemas/obligations";
import * as D from "@/lib/einvoice/decimal";
import type { Einvoice, EinvoiceParty, EinvoiceWarning } from "@/lib/einvoice/model";

// An e-invoice -> the body of POST /obligations, by EN 16931 business term. Pure: the
// business contexts it names (BT-11/12/13) are returned for the caller to find or create.

export type ImportRole = "creditor" | "debtor"; // creditor = this organization is the seller

export type ContextRef = { type: "order" | "external_object" | "project"; typeLabel: string; reference: string; term: string };

export type MappedEinvoice = {
  body: TRegisterObligation;
  contexts: ContextRef[];
  warnings: EinvoiceWarning[];
};

const MANDATORY: { term: string; label: string; get: (i: Einvoice) => string }[] = [
  { term: "BT-1", label: "invoice number", get: (i) => i.number },
  { term: "BT-2", label: "issue date", get: (i) => i.issueDate },
  { term: "BT-5", label: "invoice currency code", get: (i) => i.currency },
  { term: "BT-27", label: "seller name", get: (i) => i.seller.name },
  { term: "BT-44", label: "buyer name", get: (i) => i.buyer.name },
  { term: "BT-115", label: "amount due for payment", get: (i) => i.totals.due },
];

const unreadable = (message: string) => new AppError("einvoice_unreadable", message);
const isDate = (s: string) => ZDate.safeParse(s).success;

export function checkMandatory(inv: Einvoice): string[] {
  return MANDATORY.filter((m) => !m.get(inv)).map((m) => `${m.term} ${m.label}`);
}

export function mapEinvoice(inv: Einvoice, role: ImportRole): MappedEinvoice {
  const missing = checkMandatory(inv);
  if (missing.length) throw unreadable(`mandatory business terms missing: ${missing.join(", ")}`);
  if (!isDate(inv.issueDate)) throw unreadable(`BT-2 issue date is not a calendar date: ${JSON.stringify(inv.issueDate.slice(0, 40))}`);
  if (!(CURRENCIES as readonly string[]).includes(inv.currency)) {
    throw unreadable(`BT-5 invoice currency code ${JSON.stringify(inv.currency.slice(0, 10))} is not one of ${CURRENCIES.join(", ")}`);
  }
  const due = D.parseDecimal(inv.totals.due);
  if (!due) throw unreadable(`BT-115 amount due for payment is not a decimal amount: ${JSON.stringify(inv.totals.due.slice(0, 40))}`);
  const digits = minorDigits(inv.currency);
  const dueMinor = D.toMinor(due, digits);
  if (dueMinor === null) throw unreadable(`BT-115 amount due for payment ${inv.totals.due} has more decimals than ${inv.currency} allows (${digits})`);
  if (dueMinor <= 0n) {
    throw new AppError("nothing_payable", `BT-115 amount due for payment is ${inv.totals.due} ${inv.currency}: there is nothing to pay`);
  }

  const warnings = arithmeticWarnings(inv);

  let deadline = inv.dueDate;
  if (!isDate(deadline)) {
    deadline = inv.issueDate;
    warnings.push({
      rule: "BT-9",
      message: inv.dueDate
        ? `BT-9 payment due date ${JSON.stringify(inv.dueDate.slice(0, 40))} is not a calendar date; the deadline is the issue date BT-2 ${inv.issueDate}`
        : `no BT-9 payment due date; the deadline is the issue date BT-2 ${inv.issueDate}`,
    });
  }

  const credit = inv.documentType === "credit_note";
  const seller = partyOut(inv.seller, "BT-43", "BT-34");
  const buyer = partyOut(inv.buyer, "BT-58", "BT-49");
  const sellerKey = sellerIdentifier(inv.seller);
  const externalId = `${sellerKey}:${inv.number}`;
  if (inv.number.length > 200) throw unreadable("BT-1 invoice number is longer than 200 characters");
  if (externalId.length > 200) throw unreadable("BT-29/BT-30/BT-31 seller identifier and BT-1 invoice number together are longer than 199 characters");

  let description = (inv.notes[0] || inv.lines.find((l) => l.name)?.name || "").replace(/\s+/g, " ").trim();
  if (credit) {
    const credited = inv.precedingInvoice ? `Credit note for invoice ${inv.precedingInvoice}` : "Credit note";
    description = description ? `${credited}: ${description}` : credited;
  }

  const body: TRegisterObligation = {
    obligation_type: "invoice",
    // Invoice: the seller is owed. Credit note: the seller owes the buyer, so the roles turn.
    organization_role: credit ? (role === "creditor" ? "debtor" : "creditor") : role,
    external_reference: { namespace: "einvoice", id: externalId },
    creditor: credit ? buyer : seller,
    debtor: credit ? seller : buyer,
    amount_minor: dueMinor.toString(),
    currency: inv.currency as TRegisterObligation["currency"],
    deadline,
    business_context: { invoice_number: inv.number, ...(description ? { description: description.slice(0, 5000) } : {}) },
  };

  const terms = instalments(inv, dueMinor, digits, warnings);
  if (terms) body.payment_terms = terms;

  const contexts: ContextRef[] = [];
  if (inv.orderReference) contexts.push({ type: "order", typeLabel: "Order", reference: inv.orderReference.slice(0, 200), term: "BT-13" });
  if (inv.contractReference) contexts.push({ type: "external_object", typeLabel: "Contract", reference: inv.contractReference.slice(0, 200), term: "BT-12" });
  if (inv.projectReference) contexts.push({ type: "project", typeLabel: "Project", reference: inv.projectReference.slice(0, 200), term: "BT-11" });

  const parsed = ZRegisterObligation.safeParse(body);
  if (!parsed.success) {
    throw unreadable(
      `the invoice cannot be registered: ${parsed.error.issues
        .map((i) => `${i.path.join(".")}: ${i.message}`)
        .join("; ")
        .slice(0, 500)}`,
    );
  }
  return { body: parsed.data, contexts, warnings };
}

// Seller identifier BT-29, else legal registration BT-30, else VAT id BT-31, else the name.
export function sellerIdentifier(p: EinvoiceParty): string {
  return p.identifiers[0]?.id || p.legalId || p.vatId || p.name;
}

function partyOut(p: EinvoiceParty, _emailTerm: string, _endpointTerm: string): { name: string; email?: string } {
  const email = p.email || (p.endpoint.scheme.toUpperCase() === "EM" ? p.endpoint.id : "");
  return { name: p.name.replace(/\s+/g, " ").slice(0, 500), ...(email && email.length <= 320 ? { email } : {}) };
}

// BR-CO-10, BR-CO-13, BR-CO-15, BR-CO-16, exactly (decimal), each only when its terms are present.
export function arithmeticWarnings(inv: Einvoice): EinvoiceWarning[] {
  const t = inv.totals;
  const p = (s: string) => (s ? D.parseDecimal(s) : null);
  const opt = (s: string) => (s ? D.parseDecimal(s) : D.ZERO);
  const out: EinvoiceWarning[] = [];
  const lineNet = p(t.lineNet);
  const lines = inv.lines.map((l) => D.parseDecimal(l.net));
  if (lineNet && inv.lines.length && lines.every((l) => l)) {
    const sum = D.add(...(lines as D.Dec[]));
    if (!D.eq(sum, lineNet))
      out.push({
        rule: "BR-CO-10",
        message: `BT-106 sum of invoice line net amount ${t.lineNet} is not the sum of the line net amounts (BT-131) ${D.format(sum)}`,
      });
  }
  const taxExclusive = p(t.taxExclusive);
  const allowances = opt(t.allowances);
  const charges = opt(t.charges);
  if (lineNet && taxExclusive && allowances && charges) {
    const expected = D.add(lineNet, D.neg(allowances), charges);
    if (!D.eq(expected, taxExclusive)) {
      out.push({ rule: "BR-CO-13", message: `BT-109 invoice total without VAT ${t.taxExclusive} is not BT-106 − BT-107 + BT-108 = ${D.format(expected)}` });
    }
  }
  const tax = opt(t.tax);
  const taxInclusive = p(t.taxInclusive);
  if (taxExclusive && tax && taxInclusive) {
    const expected = D.add(taxExclusive, tax);
    if (!D.eq(expected, taxInclusive))
      out.push({ rule: "BR-CO-15", message: `BT-112 invoice total with VAT ${t.taxInclusive} is not BT-109 + BT-110 = ${D.format(expected)}` });
  }
  const prepaid = opt(t.prepaid);
  const rounding = opt(t.rounding);
  const due = p(t.due);
  if (taxInclusive && prepaid && rounding && due) {
    const expected = D.add(taxInclusive, D.neg(prepaid), rounding);
    if (!D.eq(expected, due))
      out.push({ rule: "BR-CO-16", message: `BT-115 amount due for payment ${t.due} is not BT-112 − BT-113 + BT-114 = ${D.format(expected)}` });
  }
  return out;
}

// Instalments with amounts and dates -> fixed payment terms due on their dates, when they add
// up to BT-115; otherwise a warning and the obligation is due in full on its deadline.
function instalments(inv: Einvoice, dueMinor: bigint, digits: number, warnings: EinvoiceWarning[]): TRegisterObligation["payment_terms"] {
  const withAmount = inv.paymentTerms.filter((t) => t.amount);
  if (withAmount.length === 0) return undefined;
  const parts = withAmount.map((t) => {
    const d = D.parseDecimal(t.amount);
    return { minor: d ? D.toMinor(d, digits) : null, date: t.dueDate, note: t.note };
  });
  const bad = parts.findIndex((p) => p.minor === null || p.minor <= 0n || !isDate(p.date));
  if (bad >= 0) {
    warnings.push({
      rule: "instalments",
      message: `instalment ${bad + 1} has no positive amount in ${inv.currency} or no due date; the instalments are not used as payment terms`,
    });
    return undefined;
  }
  const sum = parts.reduce((s, p) => s + (p.minor as bigint), 0n);
  if (sum !== dueMinor) {
    warnings.push({ rule: "instalments", message: `the instalments add up to ${sum} minor units, not BT-115 ${dueMinor}; they are not used as payment terms` });
    return undefined;
  }
  return parts.map((p, i) => ({
    sequence: i + 1,
    label: (p.note || `Instalment ${i + 1}`).slice(0, 250),
    amount_type: "fixed" as const,
    fixed_amount_minor: (p.minor as bigint).toString(),
    trigger_type: "immediately" as const,
    due_rule: "specific_date" as const,
    due_date: p.date,
  }));
}
