import { createHash } from "node:crypto";
import { findRfReferences, formatRf, isValidRf } from "@/lib/payment-references/rf";
import { minorToDecimal } from "@/lib/money/format";
import { compareNames, identifierIndex, tokenize } from "@/lib/reconciliation/text";

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
};

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

type Match = {
  c: Candidate;
  rf: boolean;
  obligationRef: boolean;
  invoice: boolean;
  amount: string; // why the amount matches, "" when it does not
  payer: "same" | "similar" | "different";
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

function analyse(p: PaymentFacts, c: Candidate, ids: Ids, rfs: Set<string>): Match {
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
  return {
    c,
    rf: c.paymentReference !== "" && rfs.has(c.paymentReference),
    obligationRef: ids.has(c.reference),
    invoice: c.invoiceNumber !== "" && ids.has(c.invoiceNumber),
    amount,
    payer: compareNames(p.payerName, counterpartyOf(p, c)),
    date,
    reported,
  };
}

const identified = (m: Match) => m.rf || m.obligationRef || m.invoice;

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
    (m) => m.invoice,
    (m) => m.c.invoiceNumber,
  );
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
    m.amount === "outstanding"
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
      matched: invList !== "",
      detail: invList
        ? `the remittance names invoice ${invList} as a whole word`
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
          ? `"${p.payerName}" ${payers.every((x) => x === "same") ? "is" : "looks like"} ${counterparty}`
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

// Subsets of `items` (amounts) with at least two members adding up exactly to `target`,
// depth-first over the items sorted by amount descending, with pruning on the remaining
// sum; stops after SUBSET_MAX_STEPS steps or `maxResults` subsets.
export function subsetsSummingTo(items: readonly bigint[], target: bigint, maxResults = 3): number[][] {
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
      if (pick.length >= 2) results.push(pick.map((x) => order[x].i).sort((a, b) => a - b));
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
// digits that starts a word, each run of its following groups (single spaces between them)
// that ends at a word boundary and is valid. The last rule finds the second of two spaced
// references: findRfReferences' match of the first swallows the start of the second
// (`rf18 5390 0754 7034 rf47 ...`), which left it unseen, and the first alone was taken
// for an `exact` match of a payment meant for both. A run that is valid by chance only
// adds a reference no obligation has (or makes an `exact` impossible), never removes one.
export function rfReferencesIn(text: string, tokens = tokenize(text)): Set<string> {
  const out = new Set(findRfReferences(text));
  for (const t of tokens) if (t.startsWith("RF") && isValidRf(t)) out.add(t);
  for (const m of text.matchAll(/RF ?\d{2}/gi)) {
    if (m.index > 0 && ALNUM.test(text[m.index - 1])) continue; // inside a longer word
    let compact = "";
    for (let i = m.index; i < text.length && compact.length < 25; i++) {
      const ch = text[i];
      if (ALNUM.test(ch)) {
        compact += ch.toUpperCase();
        if (compact.length >= 5 && !ALNUM.test(text[i + 1] ?? "") && isValidRf(compact)) out.add(compact);
      } else if (!(ch === " " && ALNUM.test(text[i + 1] ?? ""))) break;
    }
  }
  return out;
}

const byDeadline = (a: Match, b: Match) => (a.c.deadline < b.c.deadline ? -1 : a.c.deadline > b.c.deadline ? 1 : a.c.id < b.c.id ? -1 : 1);

// At most five suggestions for the payment, best first (confidence, then score, then the
// earlier due date). Empty when nothing is left to allocate.
export function suggest(p: PaymentFacts, candidates: readonly Candidate[]): Suggestion[] {
  const unallocated = p.amountMinor - p.allocatedMinor;
  if (unallocated <= 0n) return [];
  const seen = new Set<string>();
  const pool = candidates.filter((c) => {
    if (seen.has(c.id) || !eligible(p, c)) return false;
    seen.add(c.id);
    return true;
  });
  if (pool.length === 0) return [];
  const tokens = tokenize(p.remittance);
  const rfs = rfReferencesIn(p.remittance, tokens);
  const ids = identifierIndex(tokens);
  const matches = pool.map((c) => analyse(p, c, ids, rfs));
  const rfTotal = matches.filter((m) => m.rf).length;
  const out: Suggestion[] = [];

  // One obligation each.
  for (const m of matches) {
    const level = levelOf(m, rfTotal);
    if (!level) continue;
    const amount = lesser(outstandingOf(m.c), unallocated);
    out.push(make(p, [allocationOf(m.c, amount)], level, evidenceOf(p, [m], null)));
  }

  // Several obligations named in the remittance: oldest due date first, each up to its
  // outstanding amount, never more than the payment. `high` when they add up exactly to
  // the payment, else `medium`.
  const named = matches.filter(identified).sort(byDeadline);
  if (named.length >= 2) {
    const parts = fill(named.slice(0, 20), unallocated);
    if (parts.length >= 2) {
      const total = parts.reduce((s, x) => s + x.amount, 0n);
      const exactSum = named.reduce((s, m) => s + outstandingOf(m.c), 0n) === unallocated;
      const detail = exactSum ? `the payment's ${money(unallocated, p.currency)} equals the sum of the ${parts.length} obligations' outstanding amounts` : null;
      const ev = evidenceOf(
        p,
        parts.map((x) => x.m),
        detail,
      );
      if (!exactSum)
        ev[3] = {
          signal: "amount",
          matched: false,
          detail: `the ${parts.length} obligations named take ${money(total, p.currency)} of the payment's ${money(unallocated, p.currency)}`,
        };
      out.push(
        make(
          p,
          parts.map((x) => allocationOf(x.m.c, x.amount)),
          exactSum ? "high" : "medium",
          ev,
        ),
      );
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
      out.push(
        make(
          p,
          members.map((m) => allocationOf(m.c, outstandingOf(m.c))),
          level,
          ev,
        ),
      );
    }
  }

  const unique = new Map<string, Suggestion>();
  for (const s of out) {
    const prev = unique.get(s.id);
    if (!prev || RANK[s.confidence] > RANK[prev.confidence] || (RANK[s.confidence] === RANK[prev.confidence] && s.score > prev.score)) unique.set(s.id, s);
  }
  const firstDeadline = new Map(pool.map((c) => [c.id, c.deadline]));
  const dl = (s: Suggestion) => s.allocations.map((a) => firstDeadline.get(a.obligation_id) ?? "").sort()[0] ?? "";
  return [...unique.values()]
    .sort(
      (a, b) =>
        RANK[b.confidence] - RANK[a.confidence] ||
        b.score - a.score ||
        a.allocations.length - b.allocations.length ||
        (dl(a) < dl(b) ? -1 : dl(a) > dl(b) ? 1 : a.id < b.id ? -1 : 1),
    )
    .slice(0, MAX_SUGGESTIONS);
}

// The automatic allocation of an import: only an `exact` suggestion with one allocation
// (its amount is already min(unallocated, outstanding)); otherwise null.
export function autoAllocation(suggestions: readonly Suggestion[]): Suggestion | null {
  const s = suggestions[0];
  return s && s.confidence === "exact" && s.allocations.length === 1 ? s : null;
}
