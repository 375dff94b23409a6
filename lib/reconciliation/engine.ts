import { createHash } from "node:crypto";
import { findRfReferences, formatRf, isValidRf } from "@/lib/payment-references/rf";
import { minorToDecimal } from "@/lib/money/format";
import {
  compareNames,
  identifierIndex,
  invoiceCore,
  invoiceGroups,
  invoiceKey,
  invoiceTail,
  comparableName,
  oneEditApart,
  tokenize,
} from "@/lib/reconciliation/text";

// The matching engine: pure functions from a payment and the candidate obligations the
// database narrowed down (lib/reconciliation/candidates.ts) to at most five suggestions,
// best first, each with its evidence in words. The rules are documented in
// docs/reconciliation.md and in the OpenAPI description of GET /payments/{id}/suggestions;
// keep the three in step.

export type PaymentFacts = {
  id: string;
  organizationId: string;
  currency: string;
  direction: "incoming" | "outgoing";
  amountMinor: bigint;
  allocatedMinor: bigint;
  payerName: string; // the counterparty as the bank names it
  remittance: string; // reference and any unstructured remittance text
  receivedOn: string; // YYYY-MM-DD
  // Normalized names (comparableName) of the parties this payer name has paid before: an
  // accepted suggestion taught them (lib/reconciliation/aliases.ts). Empty when none.
  aliases?: ReadonlySet<string>;
  aliasNames?: readonly string[]; // the same parties' names as registered (for the look-up)
  // Stable parts of suggestion ids (parseSuggestionId(...).key) rejected for this payment.
  rejected?: ReadonlySet<string>;
};

// The organization's reconciliation settings as the engine needs them (GET
// /reconciliation-settings; lib/reconciliation/settings.ts).
export type Tolerance = { maxMinor: bigint; maxBasisPoints: number; kind: "bank_fee" | "discount" };
export type EngineSettings = { autoAllocate: "reference_only" | "confident"; tolerance: Tolerance | null };
export const DEFAULT_SETTINGS: EngineSettings = { autoAllocate: "reference_only", tolerance: null };

export type Candidate = {
  id: string;
  organizationId: string;
  reference: string; // OBL-...
  paymentReference: string; // RF..., "" when none
  invoiceNumber: string;
  organizationRole: "creditor" | "debtor" | string;
  currency: string;
  status: string;
  amountMinor: bigint;
  allocatedMinor: bigint;
  version: number;
  debtorName: string;
  creditorName: string;
  deadline: string; // YYYY-MM-DD
  expectedPaymentDate: string; // "" when none
  reportedPaymentDate: string; // "" when none
  reportedAmountMinor: bigint | null;
  reportedReference: string;
  dueNowMinor: bigint | null; // what is due now (payment terms), null when not computed
  termAmounts: bigint[]; // each payment term's amount
};

export type Confidence = "exact" | "high" | "medium" | "low";
export type Signal = "payment_reference" | "obligation_reference" | "invoice_number" | "amount" | "payer" | "date" | "reported_payment";
export type Evidence = { signal: Signal; matched: boolean; detail: string };
export type SuggestedAllocation = {
  obligation_id: string;
  obligation_reference: string;
  invoice_number: string;
  amount_minor: string;
  outstanding_minor: string;
  expected_version: number;
};
export type Suggestion = { id: string; confidence: Confidence; score: number; allocations: SuggestedAllocation[]; evidence: Evidence[] };

export const MAX_SUGGESTIONS = 5;
// Subset-sum bounds: at most this many of one counterparty's obligations are considered,
// at most this many search steps are taken, and subsets have at most this many members.
export const SUBSET_MAX_CANDIDATES = 24;
export const SUBSET_MAX_STEPS = 2_000;
export const SUBSET_MAX_SIZE = 6;
// `date` matches when the payment was received within this many days of a date.
export const DATE_WINDOW_DAYS = 7;

const RANK: Record<Confidence, number> = { exact: 4, high: 3, medium: 2, low: 1 };

export const outstandingOf = (c: Pick<Candidate, "amountMinor" | "allocatedMinor">) => c.amountMinor - c.allocatedMinor;
// The smaller of two amounts (Math.min does not take bigints).
const lesser = (a: bigint, b: bigint): bigint => {
  if (b < a) return b;
  return a;
};

// The hard rules: an obligation of another organization, a reconciled one (or one with
// nothing outstanding), another currency or the wrong side (incoming money pays
// obligations where the organization is the creditor, outgoing money those where it is
// the debtor) is never suggested, whatever the candidates list holds.
export function eligible(p: PaymentFacts, c: Candidate): boolean {
  return (
    c.organizationId === p.organizationId &&
    c.status !== "RECONCILED" &&
    outstandingOf(c) > 0n &&
    c.currency === p.currency &&
    c.organizationRole === (p.direction === "outgoing" ? "debtor" : "creditor")
  );
}

// The party that pays (incoming) or is paid (outgoing): the obligation's debtor or creditor.
const counterpartyOf = (p: PaymentFacts, c: Candidate) => (p.direction === "outgoing" ? c.creditorName : c.debtorName);

// The identity of a suggestion: the payment, each obligation and amount (sorted), then the
// versions the suggestion was computed against. The part before `v` is stable for the same
// payment and allocation set; accepting compares the versions after it with the current
// ones (409 version_conflict when one moved).
export function suggestionId(paymentId: string, allocations: readonly SuggestedAllocation[]): string {
  const sorted = [...allocations].sort((a, b) => (a.obligation_id < b.obligation_id ? -1 : a.obligation_id > b.obligation_id ? 1 : 0));
  const h = createHash("sha256")
    .update([paymentId, ...sorted.map((a) => `${a.obligation_id}:${a.amount_minor}`)].join("|"))
    .digest("hex")
    .slice(0, 24);
  return `sug_${h}v${sorted.map((a) => a.expected_version).join("-")}`;
}

// Splits a suggestion id into its stable part and the versions (in obligation-id order).
export function parseSuggestionId(id: string): { key: string; versions: number[] } | null {
  const m = /^(sug_[0-9a-f]{24})v(\d{1,9}(?:-\d{1,9}){0,49})$/.exec(id);
  if (!m) return null;
  return { key: m[1], versions: m[2].split("-").map(Number) };
}

// How the remittance names an invoice number: `exact` as a whole token (or a token with the
// same letters and digits), `normalized` the same number with other separators, case or
// without leading zeros (`inv 2026/202` for `INV-2026-0202`), `core` its prefix and last
// number without the year (`F-0708` for `F2026/0708`), `tail` its last number alone
// (`0708`), `typo` one character mistyped or two swapped. `tail` and `typo` count only when
// the amount and the payer agree.
export type InvoiceMatch = "exact" | "normalized" | "core" | "tail" | "typo" | "";

type Match = {
  c: Candidate;
  rf: boolean;
  obligationRef: boolean;
  invoice: InvoiceMatch;
  invoiceText: string; // how the remittance wrote it, for the evidence
  amount: string; // why the amount matches, "" when it does not
  payer: "same" | "similar" | "alias" | "different";
  date: string; // which date is near, "" when none
  reported: string; // "" when not
};

const dayCache = new Map<string, number>();
function dayNumber(d: string): number {
  let v = dayCache.get(d);
  if (v === undefined) {
    if (dayCache.size > 10_000) dayCache.clear();
    v = Date.parse(`${d}T00:00:00Z`) / 86_400_000;
    dayCache.set(d, v);
  }
  return v;
}

function daysBetween(a: string, b: string): number {
  return Math.abs(dayNumber(a) - dayNumber(b));
}

function money(minor: bigint, currency: string): string {
  return `${currency} ${minorToDecimal(minor, currency)}`;
}

type Ids = ReturnType<typeof identifierIndex>;

// The remittance's possible invoice numbers: each token and each run of two or three tokens,
// by invoiceKey, with their letter/digit groups (a run only stands for a number split at
// the same places) and their text.
type Form = { text: string; key: string; groups: number };
export type InvoiceForms = { byKey: Map<string, Form[]>; singles: Form[] };

export function invoiceForms(tokens: readonly string[]): InvoiceForms {
  const byKey = new Map<string, Form[]>();
  const singles: Form[] = [];
  const put = (text: string, single: boolean) => {
    const key = invoiceKey(text);
    if (key.length < 3) return;
    const f = { text, key, groups: invoiceGroups(text).length };
    const list = byKey.get(key);
    if (list) list.push(f);
    else byKey.set(key, [f]);
    if (single) singles.push(f);
  };
  for (let i = 0; i < tokens.length; i++) {
    put(tokens[i], true);
    if (i + 1 < tokens.length) put(`${tokens[i]} ${tokens[i + 1]}`, false);
    if (i + 2 < tokens.length) put(`${tokens[i]} ${tokens[i + 1]} ${tokens[i + 2]}`, false);
  }
  return { byKey, singles };
}

const invoiceShapes = new Map<string, { key: string; groups: number; core: string; tail: string }>();
function shapeOf(invoice: string) {
  let v = invoiceShapes.get(invoice);
  if (!v) {
    if (invoiceShapes.size > 50_000) invoiceShapes.clear();
    v = { key: invoiceKey(invoice), groups: invoiceGroups(invoice).length, core: invoiceCore(invoice), tail: invoiceTail(invoice) };
    invoiceShapes.set(invoice, v);
  }
  return v;
}

// How the remittance names this invoice number (InvoiceMatch), strongest first; `typo` is
// only looked for when `agree` (the amount and the payer match).
export function matchInvoice(invoice: string, ids: Ids, forms: InvoiceForms, agree: boolean): { kind: InvoiceMatch; text: string } {
  if (!invoice) return { kind: "", text: "" };
  if (ids.has(invoice)) return { kind: "exact", text: invoice };
  const shape = shapeOf(invoice);
  if (shape.key.length >= 3) {
    const same = forms.byKey.get(shape.key)?.find((f) => f.groups === shape.groups);
    if (same) return { kind: "normalized", text: same.text };
  }
  if (shape.core) {
    const short = forms.byKey.get(shape.core)?.find((f) => f.groups === 2);
    if (short) return { kind: "core", text: short.text };
  }
  if (!agree) return { kind: "", text: "" };
  if (shape.tail) {
    const tail = forms.byKey.get(shape.tail)?.find((f) => f.groups === 1);
    if (tail) return { kind: "tail", text: tail.text };
  }
  if (shape.key.length >= 5) {
    const typo = forms.singles.find((f) => oneEditApart(f.key, shape.key));
    if (typo) return { kind: "typo", text: typo.text };
  }
  return { kind: "", text: "" };
}

function analyse(p: PaymentFacts, c: Candidate, ids: Ids, rfs: Set<string>, forms: InvoiceForms): Match {
  const unallocated = p.amountMinor - p.allocatedMinor;
  const outstanding = outstandingOf(c);
  let amount = "";
  if (outstanding === unallocated) amount = "outstanding";
  else if (c.dueNowMinor !== null && c.dueNowMinor > 0n && c.dueNowMinor === unallocated) amount = "due_now";
  else if (c.termAmounts.some((t) => t === unallocated)) amount = "term";
  let date = "";
  if (c.reportedPaymentDate && daysBetween(p.receivedOn, c.reportedPaymentDate) <= DATE_WINDOW_DAYS)
    date = `the reported payment date ${c.reportedPaymentDate}`;
  else if (c.expectedPaymentDate && daysBetween(p.receivedOn, c.expectedPaymentDate) <= DATE_WINDOW_DAYS)
    date = `the expected payment date ${c.expectedPaymentDate}`;
  else if (daysBetween(p.receivedOn, c.deadline) <= DATE_WINDOW_DAYS) date = `the due date ${c.deadline}`;
  let reported = "";
  if (c.reportedAmountMinor !== null && c.reportedAmountMinor === unallocated)
    reported = `the recipient reported paying ${money(c.reportedAmountMinor, c.currency)}`;
  else if (c.reportedReference && ids.has(c.reportedReference)) reported = `the recipient reported paying with reference "${c.reportedReference}"`;
  let payer: Match["payer"] = compareNames(p.payerName, counterpartyOf(p, c));
  if (payer === "different" && p.aliases?.has(comparableName(counterpartyOf(p, c)))) payer = "alias";
  const inv = matchInvoice(c.invoiceNumber, ids, forms, amount !== "" && payer !== "different");
  return {
    c,
    rf: c.paymentReference !== "" && rfs.has(c.paymentReference),
    obligationRef: ids.has(c.reference),
    invoice: inv.kind,
    invoiceText: inv.text,
    amount,
    payer,
    date,
    reported,
  };
}

const identified = (m: Match) => m.rf || m.obligationRef || m.invoice !== "";
// Named as a whole token after normalization (§12's `confident` rule): the obligation
// reference, or the invoice number exactly or with other separators, case or leading zeros.
const namedWhole = (m: Match) => m.obligationRef || m.invoice === "exact" || m.invoice === "normalized";

// Confidence of a one-obligation suggestion (documented rules):
//   exact  - the remittance carries a checksum-valid RF payment reference of this open
//            obligation, and of no other open obligation of the organization in the
//            payment's currency and direction;
//   high   - an identifier (payment reference, obligation reference, invoice number) is
//            found, and the amount or the payer matches too;
//   medium - an identifier alone; or amount and payer (same/similar) together; or the
//            amount and a payment the recipient reported;
//   low    - the amount alone, or the payer with a reported payment or date.
// Nothing else is suggested. The score is the level's base (exact 1.0, high 0.80,
// medium 0.55, low 0.25) plus 0.03 for each further matching signal, below the next level.
function levelOf(m: Match, rfTotal: number): Confidence | null {
  if (m.rf && rfTotal === 1) return "exact";
  const payer = m.payer !== "different";
  if (identified(m) && (m.amount || payer)) return "high";
  if (identified(m)) return "medium";
  if (m.amount && (payer || m.reported)) return "medium";
  if (m.amount) return "low";
  if (payer && (m.reported || m.date)) return "low";
  return null;
}

const BASE: Record<Confidence, number> = { exact: 1, high: 0.8, medium: 0.55, low: 0.25 };
const CEILING: Record<Confidence, number> = { exact: 1, high: 0.95, medium: 0.75, low: 0.45 };

function scoreOf(level: Confidence, signals: number): number {
  if (level === "exact") return 1;
  return Math.round(Math.min(CEILING[level], BASE[level] + 0.03 * signals) * 100) / 100;
}

const INVOICE_WORDS: Record<Exclude<InvoiceMatch, "" | "exact">, (m: Match) => string> = {
  normalized: (m) => `the remittance names invoice ${m.c.invoiceNumber}, written "${m.invoiceText}"`,
  core: (m) => `the remittance names invoice ${m.c.invoiceNumber} in its short form "${m.invoiceText}"`,
  tail: (m) => `the remittance has "${m.invoiceText}", the number of invoice ${m.c.invoiceNumber} without its prefix, and the amount and payer agree`,
  typo: (m) => `the remittance has "${m.invoiceText}", one character off invoice ${m.c.invoiceNumber}, and the amount and payer agree`,
};

function evidenceOf(p: PaymentFacts, ms: Match[], amountDetail: string | null): Evidence[] {
  const one = ms.length === 1;
  const refs = (pick: (m: Match) => boolean, what: (m: Match) => string) => ms.filter(pick).map(what).join(", ");
  const rfList = refs(
    (m) => m.rf,
    (m) => formatRf(m.c.paymentReference),
  );
  const oblList = refs(
    (m) => m.obligationRef,
    (m) => m.c.reference,
  );
  const invList = refs(
    (m) => m.invoice === "exact",
    (m) => m.c.invoiceNumber,
  );
  const invOther = ms.filter((m) => m.invoice !== "" && m.invoice !== "exact").map((m) => INVOICE_WORDS[m.invoice as Exclude<InvoiceMatch, "" | "exact">](m));
  const unallocated = p.amountMinor - p.allocatedMinor;
  const payers = ms.map((m) => m.payer);
  const payerMatched = payers.every((x) => x !== "different");
  const counterparty = ms
    .map((m) => counterpartyOf(p, m.c))
    .filter((n, i, a) => a.indexOf(n) === i)
    .join(", ");
  const dates = ms.filter((m) => m.date).map((m) => m.date);
  const reported = ms.filter((m) => m.reported).map((m) => m.reported);
  const amountText = (m: Match) =>
    m.amount === "tolerance"
      ? `the payment's ${money(unallocated, p.currency)} is short of the outstanding amount of ${m.c.reference}, within the tolerance`
      : m.amount === "outstanding"
        ? `the payment's ${money(unallocated, p.currency)} equals the outstanding amount of ${m.c.reference}`
        : m.amount === "due_now"
          ? `the payment's ${money(unallocated, p.currency)} equals the amount due now of ${m.c.reference}`
          : `the payment's ${money(unallocated, p.currency)} equals a payment term of ${m.c.reference}`;
  return [
    {
      signal: "payment_reference",
      matched: rfList !== "",
      detail: rfList ? `the remittance carries the payment reference ${rfList}` : "no payment reference of these obligations in the remittance",
    },
    {
      signal: "obligation_reference",
      matched: oblList !== "",
      detail: oblList ? `the remittance names ${oblList}` : "the obligation reference is not in the remittance",
    },
    {
      signal: "invoice_number",
      matched: invList !== "" || invOther.length > 0,
      detail:
        invList || invOther.length
          ? [invList ? `the remittance names invoice ${invList} as a whole word` : "", ...invOther].filter((x) => x).join("; ")
          : "no invoice number of these obligations is in the remittance as a whole word",
    },
    amountDetail !== null
      ? { signal: "amount", matched: true, detail: amountDetail }
      : one && ms[0].amount
        ? { signal: "amount", matched: true, detail: amountText(ms[0]) }
        : {
            signal: "amount",
            matched: false,
            detail: one
              ? `the payment's ${money(unallocated, p.currency)} differs from the outstanding ${money(outstandingOf(ms[0].c), p.currency)}`
              : `the payment's ${money(unallocated, p.currency)} differs from the outstanding total`,
          },
    {
      signal: "payer",
      matched: payerMatched,
      detail: !p.payerName
        ? "the bank gave no counterparty name"
        : payerMatched
          ? payers.some((x) => x === "alias")
            ? `"${p.payerName}" paid ${counterparty} before: paid by this name before`
            : `"${p.payerName}" ${payers.every((x) => x === "same") ? "is" : "looks like"} ${counterparty}`
          : `"${p.payerName}" is not ${counterparty || "the obligation's party"}`,
    },
    {
      signal: "date",
      matched: dates.length > 0,
      detail: dates.length
        ? `received on ${p.receivedOn}, within ${DATE_WINDOW_DAYS} days of ${dates.join(", ")}`
        : `received on ${p.receivedOn}, not near a due, expected or reported date`,
    },
    {
      signal: "reported_payment",
      matched: reported.length > 0,
      detail: reported.length ? reported.join("; ") : "no reported payment with this amount or reference",
    },
  ];
}

function countSignals(ev: Evidence[]): number {
  return ev.filter((e) => e.matched).length;
}

function allocationOf(c: Candidate, amount: bigint): SuggestedAllocation {
  return {
    obligation_id: c.id,
    obligation_reference: c.reference,
    invoice_number: c.invoiceNumber,
    amount_minor: amount.toString(),
    outstanding_minor: outstandingOf(c).toString(),
    expected_version: c.version,
  };
}

function make(p: PaymentFacts, allocations: SuggestedAllocation[], confidence: Confidence, evidence: Evidence[], extra = 0): Suggestion {
  return { id: suggestionId(p.id, allocations), confidence, score: scoreOf(confidence, countSignals(evidence) - 1 + extra), allocations, evidence };
}

// Allocates `total` over the matches in the given order, each at most its outstanding
// amount; the members that get nothing are left out.
function fill(ms: Match[], total: bigint): { m: Match; amount: bigint }[] {
  let left = total;
  const out: { m: Match; amount: bigint }[] = [];
  for (const m of ms) {
    if (left <= 0n) break;
    const a = lesser(outstandingOf(m.c), left);
    out.push({ m, amount: a });
    left -= a;
  }
  return out;
}

// Subsets of `items` (amounts) with at least `minSize` members adding up exactly to `target`,
// depth-first over the items sorted by amount descending, with pruning on the remaining
// sum; stops after SUBSET_MAX_STEPS steps or `maxResults` subsets.
export function subsetsSummingTo(items: readonly bigint[], target: bigint, maxResults = 3, minSize = 2): number[][] {
  const order = items
    .map((a, i) => ({ a, i }))
    .filter((x) => x.a > 0n && x.a <= target)
    .sort((x, y) => (x.a > y.a ? -1 : x.a < y.a ? 1 : x.i - y.i));
  const suffix: bigint[] = new Array(order.length + 1).fill(0n);
  for (let k = order.length - 1; k >= 0; k--) suffix[k] = suffix[k + 1] + order[k].a;
  const results: number[][] = [];
  let steps = 0;
  const pick: number[] = [];
  const walk = (k: number, left: bigint): void => {
    if (results.length >= maxResults || steps >= SUBSET_MAX_STEPS) return;
    steps++;
    if (left === 0n) {
      if (pick.length >= minSize) results.push(pick.map((x) => order[x].i).sort((a, b) => a - b));
      return;
    }
    if (k >= order.length || pick.length >= SUBSET_MAX_SIZE || suffix[k] < left) return;
    for (let j = k; j < order.length; j++) {
      if (order[j].a > left) continue;
      pick.push(j);
      walk(j + 1, left - order[j].a);
      pick.pop();
      if (results.length >= maxResults || steps >= SUBSET_MAX_STEPS) return;
    }
  };
  walk(0, target);
  return results;
}

const ALNUM = /[A-Za-z0-9]/;

// Checksum-valid RF references in the remittance: those findRfReferences sees (spaces in
// groups of four allowed), every token that is one by itself, and, from every `RF` + two
// digits, each run of its following groups (single spaces between them) that is valid at
// any length. The last rule finds the second of two spaced references: findRfReferences'
// match of the first swallows the start of the second (`rf18 5390 0754 7034 rf47 ...`),
// which left it unseen, and the first alone was taken for an `exact` match of a payment
// meant for both. It also reads a reference glued to the words around it: banks cut MT940
// `?2x` subfields at 27 characters wherever they fall and join them without a space, so
// `SVWZ+Rechnung` and `RF18 5390 0754 7034` become `RechnungRF18 5390 0754 7034`, and
// a following subfield can glue a word to its end. A run that is valid by chance only adds
// a reference no obligation has (or makes an `exact` impossible), never removes one.
export function rfReferencesIn(text: string, tokens = tokenize(text)): Set<string> {
  const out = new Set(findRfReferences(text));
  for (const t of tokens) if (t.startsWith("RF") && isValidRf(t)) out.add(t);
  for (const m of text.matchAll(/RF ?\d{2}/gi)) {
    let compact = "";
    for (let i = m.index; i < text.length && compact.length < 25; i++) {
      const ch = text[i];
      if (ALNUM.test(ch)) {
        compact += ch.toUpperCase();
        if (compact.length >= 5 && isValidRf(compact)) out.add(compact);
      } else if (!(ch === " " && ALNUM.test(text[i + 1] ?? ""))) break;
    }
  }
  return out;
}

const byDeadline = (a: Match, b: Match) => (a.c.deadline < b.c.deadline ? -1 : a.c.deadline > b.c.deadline ? 1 : a.c.id < b.c.id ? -1 : 1);

// A payment short of what is owed by at most the tolerance (both bounds: `maxMinor` minor
// units of the payment's currency and `maxBasisPoints` of what is owed): the shortfall and
// the kind of credit that settles it (§12, credited as §9 says). Null when the payment is
// not short, or short by more.
export type Shortfall = { shortMinor: bigint; kind: Tolerance["kind"] };
export function shortWithinTolerance(paidMinor: bigint, owedMinor: bigint, tolerance: Tolerance | null): Shortfall | null {
  if (!tolerance || paidMinor <= 0n || paidMinor >= owedMinor) return null;
  const short = owedMinor - paidMinor;
  if (short > tolerance.maxMinor) return null;
  if (short * 10_000n > BigInt(tolerance.maxBasisPoints) * owedMinor) return null;
  return { shortMinor: short, kind: tolerance.kind };
}

// The shortfall against the obligation's outstanding amount, else against its amount due now.
function toleranceOf(p: PaymentFacts, c: Candidate, tolerance: Tolerance | null): { shortfall: Shortfall; owed: "outstanding" | "due_now" } | null {
  const unallocated = p.amountMinor - p.allocatedMinor;
  const a = shortWithinTolerance(unallocated, outstandingOf(c), tolerance);
  if (a) return { shortfall: a, owed: "outstanding" };
  const b = c.dueNowMinor !== null && c.dueNowMinor > 0n ? shortWithinTolerance(unallocated, c.dueNowMinor, tolerance) : null;
  return b ? { shortfall: b, owed: "due_now" } : null;
}

// What the import allocates without a person (§3 and §12): one obligation, the amount,
// which rule allowed it, and — when the payment is short within the tolerance — the rest to
// credit (§9). The crediting itself is not written yet (see docs/reconciliation.md,
// "Tolerance"): the import allocates a `payment_reference` decision as before and leaves a
// `confident` one with a shortfall to a person.
export type AutoDecision = { suggestion: Suggestion; rule: "payment_reference" | "confident"; shortfall: Shortfall | null };
export type Decision = { suggestions: Suggestion[]; auto: AutoDecision | null };

type Built = { s: Suggestion; sig: string };

const KIND_WORDS: Record<Tolerance["kind"], string> = { bank_fee: "a bank fee", discount: "an early-payment discount" };

// The reason written on the credit that settles a shortfall within the tolerance.
export const toleranceReason = (kind: Tolerance["kind"]) => `Paid short by ${KIND_WORDS[kind]}, within the organization's tolerance`;

// At most five suggestions for the payment, best first (confidence, then score, then the
// earlier due date). Empty when nothing is left to allocate.
export function suggest(p: PaymentFacts, candidates: readonly Candidate[], settings: EngineSettings = DEFAULT_SETTINGS): Suggestion[] {
  return decide(p, candidates, settings).suggestions;
}

// The suggestions and the automatic allocation the settings allow, if any.
export function decide(p: PaymentFacts, candidates: readonly Candidate[], settings: EngineSettings = DEFAULT_SETTINGS): Decision {
  const unallocated = p.amountMinor - p.allocatedMinor;
  if (unallocated <= 0n) return { suggestions: [], auto: null };
  const seen = new Set<string>();
  const pool = candidates.filter((c) => {
    if (seen.has(c.id) || !eligible(p, c)) return false;
    seen.add(c.id);
    return true;
  });
  if (pool.length === 0) return { suggestions: [], auto: null };
  const tokens = tokenize(p.remittance);
  const rfs = rfReferencesIn(p.remittance, tokens);
  const ids = identifierIndex(tokens);
  const forms = invoiceForms(tokens);
  const tolerances = new Map<string, ReturnType<typeof toleranceOf>>();
  const matches = pool.map((c) => {
    const m = analyse(p, c, ids, rfs, forms);
    if (!m.amount && settings.tolerance) {
      const t = toleranceOf(p, c, settings.tolerance);
      if (t) {
        tolerances.set(c.id, t);
        m.amount = "tolerance";
        if (!m.invoice) {
          // The amount now agrees: look again for the weaker forms of the invoice number.
          const inv = matchInvoice(c.invoiceNumber, ids, forms, m.payer !== "different");
          m.invoice = inv.kind;
          m.invoiceText = inv.text;
        }
      }
    }
    return m;
  });
  const rfTotal = matches.filter((m) => m.rf).length;
  const out: Built[] = [];
  const sigOf = (level: Confidence, ms: Match[]) =>
    `${level}|${ms.length}|${ms.map((m) => `${m.rf}${m.obligationRef}${m.invoice}${m.amount}${m.payer}${m.reported !== ""}`).join(",")}`;
  const amountWords = (m: Match): string | null => {
    const t = tolerances.get(m.c.id);
    if (!t) return null;
    const owed = t.owed === "outstanding" ? outstandingOf(m.c) : (m.c.dueNowMinor ?? 0n);
    return `the payment's ${money(unallocated, p.currency)} is ${money(t.shortfall.shortMinor, p.currency)} short of the ${t.owed === "outstanding" ? "outstanding amount" : "amount due now"} ${money(owed, p.currency)} of ${m.c.reference}: within the tolerance for ${KIND_WORDS[t.shortfall.kind]}`;
  };

  // One obligation each.
  for (const m of matches) {
    const level = levelOf(m, rfTotal);
    if (!level) continue;
    const amount = lesser(outstandingOf(m.c), unallocated);
    out.push({ s: make(p, [allocationOf(m.c, amount)], level, evidenceOf(p, [m], amountWords(m))), sig: sigOf(level, [m]) });
  }

  // Several obligations named in the remittance: oldest due date first, each up to its
  // outstanding amount, never more than the payment. `high` when they add up exactly to
  // the payment, else `medium`. A remittance cut off (SEPA keeps 140 characters) names only
  // some of what is paid: the named ones plus other open obligations of the same party that
  // make up the rest exactly are `high` too (the exact-sum set containing every named one).
  const named = matches.filter(identified).sort(byDeadline);
  if (named.length >= 1) {
    const namedSum = named.reduce((s, m) => s + outstandingOf(m.c), 0n);
    if (named.length >= 2) {
      const parts = fill(named.slice(0, 20), unallocated);
      if (parts.length >= 2) {
        const total = parts.reduce((s, x) => s + x.amount, 0n);
        const exactSum = namedSum === unallocated;
        const detail = exactSum
          ? `the payment's ${money(unallocated, p.currency)} equals the sum of the ${parts.length} obligations' outstanding amounts`
          : null;
        const members = parts.map((x) => x.m);
        const ev = evidenceOf(p, members, detail);
        if (!exactSum)
          ev[3] = {
            signal: "amount",
            matched: false,
            detail: `the ${parts.length} obligations named take ${money(total, p.currency)} of the payment's ${money(unallocated, p.currency)}`,
          };
        const level: Confidence = exactSum ? "high" : "medium";
        out.push({
          s: make(
            p,
            parts.map((x) => allocationOf(x.m.c, x.amount)),
            level,
            ev,
          ),
          sig: sigOf(level, members),
        });
      }
    }
    if (namedSum < unallocated && named.length <= 20) {
      const party = counterpartyOf(p, named[0].c);
      const samePartyNamed = named.every((m) => compareNames(counterpartyOf(p, m.c), party) === "same");
      const rest = samePartyNamed
        ? matches
            .filter((m) => !identified(m) && compareNames(counterpartyOf(p, m.c), party) === "same")
            .sort(byDeadline)
            .slice(0, SUBSET_MAX_CANDIDATES)
        : [];
      for (const subset of subsetsSummingTo(
        rest.map((m) => outstandingOf(m.c)),
        unallocated - namedSum,
        2,
        1,
      )) {
        const members = [...named, ...subset.map((i) => rest[i])];
        const detail = `the payment's ${money(unallocated, p.currency)} equals the sum of the ${named.length} obligations named and ${subset.length} more open obligation${subset.length === 1 ? "" : "s"} of ${party} (the remittance looks cut off)`;
        out.push({
          s: make(
            p,
            members.map((m) => allocationOf(m.c, outstandingOf(m.c))),
            "high",
            evidenceOf(p, members, detail),
            1,
          ),
          sig: sigOf("high", members),
        });
      }
    }
  }

  // Several obligations of one counterparty adding up exactly to the payment: `medium`
  // (the payer and the sum match), `high` when the remittance also names every member.
  if (p.payerName) {
    const same = matches
      .filter((m) => m.payer !== "different")
      .sort(byDeadline)
      .slice(0, SUBSET_MAX_CANDIDATES);
    for (const subset of subsetsSummingTo(
      same.map((m) => outstandingOf(m.c)),
      unallocated,
    )) {
      const members = subset.map((i) => same[i]);
      const detail = `the payment's ${money(unallocated, p.currency)} equals the sum of the ${members.length} obligations' outstanding amounts`;
      const ev = evidenceOf(p, members, detail);
      const level: Confidence = members.every(identified) ? "high" : "medium";
      out.push({
        s: make(
          p,
          members.map((m) => allocationOf(m.c, outstandingOf(m.c))),
          level,
          ev,
        ),
        sig: sigOf(level, members),
      });
    }
  }

  // Confidence that means something: suggestions the evidence cannot tell apart (the same
  // level from the same signals, the date aside) are `low`; one that covers less than half
  // of the payment is at most `medium`.
  // (Counted over distinct allocation sets: one set reached by two routes is one suggestion.)
  const sigIds = new Map<string, Set<string>>();
  for (const b of out) {
    const ids = sigIds.get(b.sig) ?? new Set<string>();
    ids.add(b.s.id);
    sigIds.set(b.sig, ids);
  }
  const sigCount = new Map([...sigIds].map(([k, v]) => [k, v.size]));
  for (const b of out) {
    if (b.s.confidence === "exact") continue;
    let level = b.s.confidence;
    const covered = b.s.allocations.reduce((s, a) => s + BigInt(a.amount_minor), 0n);
    if (covered * 2n < unallocated && RANK[level] > RANK.medium) level = "medium";
    if ((sigCount.get(b.sig) ?? 0) > 1) level = "low";
    if (level !== b.s.confidence) {
      b.s.confidence = level;
      b.s.score = scoreOf(level, countSignals(b.s.evidence) - 1);
    }
  }

  const unique = new Map<string, Suggestion>();
  for (const { s } of out) {
    if (p.rejected?.has(s.id.slice(0, s.id.indexOf("v")))) continue;
    const prev = unique.get(s.id);
    if (!prev || RANK[s.confidence] > RANK[prev.confidence] || (RANK[s.confidence] === RANK[prev.confidence] && s.score > prev.score)) unique.set(s.id, s);
  }
  const firstDeadline = new Map(pool.map((c) => [c.id, c.deadline]));
  const dl = (s: Suggestion) => s.allocations.map((a) => firstDeadline.get(a.obligation_id) ?? "").sort()[0] ?? "";
  const suggestions = [...unique.values()]
    .sort(
      (a, b) =>
        RANK[b.confidence] - RANK[a.confidence] ||
        b.score - a.score ||
        a.allocations.length - b.allocations.length ||
        (dl(a) < dl(b) ? -1 : dl(a) > dl(b) ? 1 : a.id < b.id ? -1 : 1),
    )
    .slice(0, MAX_SUGGESTIONS);
  return { suggestions, auto: autoDecision(p, suggestions, matches, tolerances, settings) };
}

function autoDecision(
  p: PaymentFacts,
  suggestions: readonly Suggestion[],
  matches: readonly Match[],
  tolerances: ReadonlyMap<string, { shortfall: Shortfall } | null>,
  settings: EngineSettings,
): AutoDecision | null {
  const top = suggestions[0];
  if (top?.allocations.length !== 1) return null;
  const m = matches.find((x) => x.c.id === top.allocations[0].obligation_id);
  if (!m) return null;
  if (top.confidence === "exact") {
    const unallocated = p.amountMinor - p.allocatedMinor;
    return { suggestion: top, rule: "payment_reference", shortfall: shortWithinTolerance(unallocated, outstandingOf(m.c), settings.tolerance) };
  }
  // §12 `confident`: named as a whole token (after normalization), the amount equal to what
  // is due or outstanding (or short within the tolerance), and no other open obligation
  // named by the remittance.
  if (settings.autoAllocate !== "confident" || top.confidence !== "high") return null;
  if (!namedWhole(m)) return null;
  if (matches.some((x) => x !== m && identified(x))) return null;
  if (m.amount === "outstanding" || m.amount === "due_now") return { suggestion: top, rule: "confident", shortfall: null };
  const t = tolerances.get(m.c.id);
  if (m.amount === "tolerance" && t) return { suggestion: top, rule: "confident", shortfall: t.shortfall };
  return null;
}

// The automatic allocation of an import under `reference_only`: only an `exact` suggestion
// with one allocation (its amount is already min(unallocated, outstanding)); otherwise null.
export function autoAllocation(suggestions: readonly Suggestion[]): Suggestion | null {
  const s = suggestions[0];
  return s?.confidence === "exact" && s.allocations.length === 1 ? s : null;
}
