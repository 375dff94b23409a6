import { type InferResult, type RawBuilder, sql as raw } from "kysely";
import type { Tx } from "@/lib/db/client";
import { type Query, query } from "@/lib/db/query";
import { evaluateTerms } from "@/lib/obligations/terms";
import { termSpecOf } from "@/lib/obligations/evaluate";
import { fromDate, todayUtc } from "@/lib/schemas/common";
import { SUBSET_MAX_CANDIDATES, rfReferencesIn, type Candidate, type PaymentFacts } from "@/lib/reconciliation/engine";
import { MIN_IDENTIFIER_LENGTH, compact, invoiceCompact, invoiceKey, nameKey, comparableName, tokenize } from "@/lib/reconciliation/text";
import { present } from "@/lib/present";

// Narrows the obligations the engine looks at, for one payment or a whole import, with
// one indexed query per signal for the whole batch (never a scan of all obligations per
// transaction). Every query is limited to the organization and to open obligations
// (status <> 'RECONCILED'); the engine applies the currency/direction rules again.
//   payment_reference : unique index (organization_id, payment_reference)
//   obligation reference : unique index (organization_id, reference)
//   invoice number    : (organization_id, fos_invoice_compact(invoice_number)) and
//                       (organization_id, fos_invoice_key(invoice_number)) (migration 0023)
//                       over the remittance's tokens and runs of two or three tokens
//   amount            : (organization_id, currency, amount_minor - allocated_minor), at most
//                       AMOUNT_LIMIT per amount, earliest deadline first
//   counterparty      : (organization_id, currency, lower(left(name, 4))) for the subset-sum,
//                       at most SUBSET_MAX_CANDIDATES per name key, outstanding <= amount; the
//                       keys are the payer's name, the parties it paid before (aliases), and
//                       the party of obligations the remittance names when they add up to
//                       less than the payment (a cut-off remittance: the rest of the set)

export const AMOUNT_LIMIT = 20;

// The obligation's columns the engine reads (`o`: obligations).
const COLUMNS = [
  "o.id",
  "o.organization_id",
  "o.reference",
  "o.payment_reference",
  "o.invoice_number",
  "o.organization_role",
  "o.currency",
  "o.status",
  "o.amount_minor",
  "o.allocated_minor",
  "o.version",
  "o.debtor_name",
  "o.creditor_name",
  "o.deadline",
  "o.expected_payment_date",
  "o.reported_payment_date",
  "o.reported_amount_minor",
  "o.reported_reference",
  "o.created_at",
] as const;

// Open obligations of the organization, with the columns above.
const openObligations = (q: Query, org: string) =>
  q.selectFrom("obligations as o").select(COLUMNS).where("o.organization_id", "=", org).where("o.status", "<>", "RECONCILED");

type Row = InferResult<ReturnType<typeof openObligations>>[number];
const outstanding = raw<bigint>`(o.amount_minor - o.allocated_minor)`;

// Words of the remittance that may be identifiers: the tokens themselves and runs of two
// or three (an invoice number written with spaces).
function identifierKeys(tokens: string[]): string[] {
  const out = new Set<string>();
  for (let i = 0; i < tokens.length; i++) {
    if (compact(tokens[i]).length >= MIN_IDENTIFIER_LENGTH) out.add(tokens[i]);
    if (i + 1 < tokens.length) out.add(`${tokens[i]} ${tokens[i + 1]}`);
    if (i + 2 < tokens.length) out.add(`${tokens[i]} ${tokens[i + 1]} ${tokens[i + 2]}`);
  }
  return [...out];
}

// The same words as invoice look-up keys: letters and digits only (fos_invoice_compact), and
// also without leading zeros (fos_invoice_key); keys shorter than 3 or without a digit are
// never looked up.
function invoiceKeys(tokens: string[]): { compacts: string[]; keys: string[] } {
  const compacts = new Set<string>();
  const keys = new Set<string>();
  for (const w of identifierKeys(tokens)) {
    const c = invoiceCompact(w);
    if (c.length >= MIN_IDENTIFIER_LENGTH && /\d/.test(c)) compacts.add(c);
    const k = invoiceKey(w);
    if (k.length >= MIN_IDENTIFIER_LENGTH && /\d/.test(k)) keys.add(k);
  }
  return { compacts: [...compacts], keys: [...keys] };
}

// OBL references as tokens, also written without the hyphen (OBL7K3M9Q2X4B).
function obligationReferenceKeys(tokens: string[]): string[] {
  const out = new Set<string>();
  for (const t of tokens) {
    const c = compact(t);
    if (/^OBL[A-Z0-9]{4,}$/.test(c)) out.add(`OBL-${c.slice(3)}`);
  }
  return [...out];
}

// Candidates per payment id, for every payment given (all of one organization).
export type FindCandidatesInput = { organizationId: string; payments: readonly PaymentFacts[] };

export async function findCandidates(tx: Tx, { organizationId, payments }: FindCandidatesInput): Promise<Map<string, Candidate[]>> {
  const result = new Map<string, Candidate[]>(payments.map((p) => [p.id, []]));
  if (payments.length === 0) return result;

  const tokensOf = new Map(payments.map((p) => [p.id, tokenize(p.remittance)]));
  const rfs = new Set<string>();
  const refs = new Set<string>();
  const idKeys = new Set<string>();
  const invCompacts = new Set<string>();
  const invKeys = new Set<string>();
  const amountKeys = new Map<string, { currency: string; amount: string }>();
  const nameKeys = new Map<string, { currency: string; key: string; direction: string; max: bigint }>();
  const addNameKey = (p: PaymentFacts, name: string, max: bigint) => {
    const key = nameKey(name);
    if (key.length < 2) return;
    const k = `${p.currency}:${p.direction}:${key}`;
    const prev = nameKeys.get(k);
    nameKeys.set(k, { currency: p.currency, key, direction: p.direction, max: prev && prev.max > max ? prev.max : max });
  };
  for (const p of payments) {
    const tokens = present(tokensOf.get(p.id), "remittance tokens");
    for (const r of rfReferencesIn(p.remittance, tokens)) rfs.add(r);
    for (const r of obligationReferenceKeys(tokens)) refs.add(r);
    for (const k of identifierKeys(tokens)) idKeys.add(k);
    const inv = invoiceKeys(tokens);
    for (const k of inv.compacts) invCompacts.add(k);
    for (const k of inv.keys) invKeys.add(k);
    const unallocated = p.amountMinor - p.allocatedMinor;
    if (unallocated <= 0n) continue;
    amountKeys.set(`${p.currency}:${unallocated}`, { currency: p.currency, amount: unallocated.toString() });
    addNameKey(p, p.payerName, unallocated);
    for (const name of p.aliasNames ?? []) addNameKey(p, name, unallocated);
  }

  const rows = new Map<string, Row>();
  const add = (rs: Row[]) => {
    for (const r of rs) rows.set(r.id, r);
  };
  const foundByName = new Set<string>();
  const org = organizationId;
  const byIdentifier: Row[] = [];
  const addIdentified = (rs: Row[]) => {
    add(rs);
    byIdentifier.push(...rs);
  };
  const q = query(tx);
  // The open obligations each identifier names: the column (or its normalized key) equal to
  // one of the keys read from the remittances; an invoice key never matches an empty number.
  const identified: [Set<string>, RawBuilder<string>, boolean][] = [
    [rfs, raw`o.payment_reference`, false],
    [refs, raw`o.reference`, false],
    [idKeys, raw`upper(o.invoice_number)`, false],
    [invCompacts, raw`fos_invoice_compact(o.invoice_number)`, true],
    [invKeys, raw`fos_invoice_key(o.invoice_number)`, true],
  ];
  for (const [keys, column, numbered] of identified) {
    if (!keys.size) continue;
    addIdentified(
      await openObligations(q, org)
        .where(raw<boolean>`${column} = any(${[...keys]}::text[])`)
        .$if(numbered, (w) => w.where("o.invoice_number", "<>", ""))
        .execute(),
    );
  }
  // A cut-off remittance names part of what is paid: the named obligations' party is looked
  // up too, for the rest of the set (for the payments whose named obligations add up to less
  // than the payment).
  for (const { p, rows: named } of namedPerPayment(payments, tokensOf, byIdentifier)) {
    const unallocated = p.amountMinor - p.allocatedMinor;
    const sum = named.reduce((s, r) => s + (BigInt(r.amount_minor) - BigInt(r.allocated_minor)), 0n);
    if (sum <= 0n || sum >= unallocated) continue;
    for (const r of named) addNameKey(p, p.direction === "incoming" ? r.debtor_name : r.creditor_name, unallocated - sum);
  }
  if (amountKeys.size) {
    const ks = [...amountKeys.values()];
    const keys = raw<{ currency: string; amount: bigint }>`unnest(${ks.map((k) => k.currency)}::text[], ${ks.map((k) => k.amount)}::bigint[])`;
    add(
      await q
        .selectFrom(keys.as<"k">(raw`k(currency, amount)`))
        .innerJoinLateral(
          (eb) =>
            eb
              .selectFrom("obligations as o")
              .select(COLUMNS)
              .where("o.organization_id", "=", org)
              .whereRef("o.currency", "=", "k.currency")
              .where(outstanding, "=", eb.ref("k.amount"))
              .where("o.status", "<>", "RECONCILED")
              .orderBy("o.deadline")
              .orderBy("o.id")
              .limit(AMOUNT_LIMIT)
              .as("c"),
          (j) => j.onTrue(),
        )
        .selectAll("c")
        .execute(),
    );
  }
  for (const direction of ["incoming", "outgoing"] as const) {
    const ks = [...nameKeys.values()].filter((k) => k.direction === direction);
    if (!ks.length) continue;
    const nameOf = direction === "incoming" ? raw<string>`lower(left(o.debtor_name, 4))` : raw<string>`lower(left(o.creditor_name, 4))`;
    const keys = raw<{
      currency: string;
      key: string;
      max: bigint;
    }>`unnest(${ks.map((k) => k.currency)}::text[], ${ks.map((k) => k.key)}::text[], ${ks.map((k) => k.max)}::bigint[])`;
    const found = await q
      .selectFrom(keys.as<"k">(raw`k(currency, key, max)`))
      .innerJoinLateral(
        (eb) =>
          eb
            .selectFrom("obligations as o")
            .select(COLUMNS)
            .where("o.organization_id", "=", org)
            .whereRef("o.currency", "=", "k.currency")
            .where(nameOf, "=", eb.ref("k.key"))
            .where("o.status", "<>", "RECONCILED")
            .where(outstanding, "<=", eb.ref("k.max"))
            .orderBy("o.deadline")
            .orderBy("o.id")
            .limit(SUBSET_MAX_CANDIDATES)
            .as("c"),
        (j) => j.onTrue(),
      )
      .selectAll("c")
      .execute();
    add(found);
    for (const r of found) foundByName.add(`${direction}:${r.id}`);
  }

  const candidates = await toCandidates(tx, organizationId, [...rows.values()]);
  // Hand each payment only what can concern it (same currency), so the engine's work per
  // transaction stays small.
  const byCurrency = new Map<string, Candidate[]>();
  for (const c of candidates) {
    const list = byCurrency.get(c.currency) ?? [];
    list.push(c);
    byCurrency.set(c.currency, list);
  }
  const index = indexPool(candidates, foundByName);
  for (const p of payments) result.set(p.id, relevant(p, index, present(tokensOf.get(p.id), "remittance tokens")));
  return result;
}

// For each payment, the rows the identifier look-ups found that its own remittance names
// (RF reference, obligation reference, or an invoice number in any written form), in its
// currency.
function namedPerPayment(payments: readonly PaymentFacts[], tokensOf: Map<string, string[]>, rows: readonly Row[]): { p: PaymentFacts; rows: Row[] }[] {
  if (rows.length === 0) return [];
  const index = new Map<string, Row[]>();
  const put = (k: string, r: Row) => {
    const list = index.get(k);
    if (list) list.push(r);
    else index.set(k, [r]);
  };
  for (const r of rows) {
    if (r.payment_reference) put(`rf:${r.payment_reference}`, r);
    put(`ref:${r.reference}`, r);
    if (r.invoice_number) {
      put(`c:${invoiceCompact(r.invoice_number)}`, r);
      put(`k:${invoiceKey(r.invoice_number)}`, r);
    }
  }
  const out: { p: PaymentFacts; rows: Row[] }[] = [];
  for (const p of payments) {
    const tokens = tokensOf.get(p.id) ?? [];
    const found = new Map<string, Row>();
    const take = (k: string) => {
      for (const r of index.get(k) ?? []) if (r.currency === p.currency) found.set(r.id, r);
    };
    for (const r of rfReferencesIn(p.remittance, tokens)) take(`rf:${r}`);
    for (const r of obligationReferenceKeys(tokens)) take(`ref:${r}`);
    const inv = invoiceKeys(tokens);
    for (const k of inv.compacts) take(`c:${k}`);
    for (const k of inv.keys) take(`k:${k}`);
    if (found.size) out.push({ p, rows: [...found.values()] });
  }
  return out;
}

// Look-up maps over the batch's candidates, so that picking one payment's candidates costs
// its own keys, not the size of the batch. A candidate is filed under a counterparty key
// only when the counterparty look-up found it (`foundByName`: "incoming:<id>" /
// "outgoing:<id>"): filed under the key of every candidate, a payer whose first four letters
// many obligations share was handed every such obligation the whole file's other look-ups
// had found (250 per payment instead of at most SUBSET_MAX_CANDIDATES in a 10,000-row
// import, and more than GET /payments/{id}/suggestions sees for the same payment).
type PoolIndex = Map<string, Candidate[]>;
export function indexPool(candidates: readonly Candidate[], foundByName: ReadonlySet<string>): PoolIndex {
  const index: PoolIndex = new Map();
  const put = (k: string, c: Candidate) => {
    const list = index.get(k);
    if (list) list.push(c);
    else index.set(k, [c]);
  };
  for (const c of candidates) {
    const cur = c.currency;
    if (c.paymentReference) put(`rf:${c.paymentReference}`, c);
    put(`ref:${c.reference}`, c);
    if (c.invoiceNumber) {
      put(`inv:${c.invoiceNumber.toUpperCase()}`, c);
      put(`invc:${invoiceCompact(c.invoiceNumber)}`, c);
      put(`invk:${invoiceKey(c.invoiceNumber)}`, c);
    }
    put(`amt:${cur}:${c.amountMinor - c.allocatedMinor}`, c);
    if (foundByName.has(`incoming:${c.id}`)) put(`name:incoming:${cur}:${nameKey(c.debtorName)}`, c);
    if (foundByName.has(`outgoing:${c.id}`)) put(`name:outgoing:${cur}:${nameKey(c.creditorName)}`, c);
  }
  return index;
}

// The candidates of the batch that this payment's own keys find.
export function relevant(p: PaymentFacts, index: PoolIndex, tokens: string[]): Candidate[] {
  const out = new Map<string, Candidate>();
  const take = (k: string) => {
    for (const c of index.get(k) ?? []) out.set(c.id, c);
  };
  for (const r of rfReferencesIn(p.remittance, tokens)) take(`rf:${r}`);
  for (const r of obligationReferenceKeys(tokens)) take(`ref:${r}`);
  for (const k of identifierKeys(tokens)) take(`inv:${k}`);
  const inv = invoiceKeys(tokens);
  for (const k of inv.compacts) take(`invc:${k}`);
  for (const k of inv.keys) take(`invk:${k}`);
  const named = [...out.values()];
  take(`amt:${p.currency}:${p.amountMinor - p.allocatedMinor}`);
  const takeName = (name: string) => {
    const key = nameKey(name);
    if (key.length >= 2) take(`name:${p.direction}:${p.currency}:${key}`);
  };
  takeName(p.payerName);
  for (const name of p.aliasNames ?? []) takeName(name);
  // The party of what the remittance names (the rest of a cut-off remittance's set).
  for (const c of named) if (c.currency === p.currency) takeName(p.direction === "incoming" ? c.debtorName : c.creditorName);
  return [...out.values()];
}

// Rows -> engine candidates, with the payment terms (for "a payment term's amount" and
// "the amount due now") read in two queries for all of them.
async function toCandidates(tx: Tx, organizationId: string, rows: Row[]): Promise<Candidate[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const terms = await tx.paymentTerm.findMany({
    where: { organizationId, obligationId: { in: ids } },
    orderBy: [{ obligationId: "asc" }, { sequence: "asc" }],
  });
  const conditions = terms.length
    ? await tx.obligationCondition.findMany({ where: { organizationId, obligationId: { in: [...new Set(terms.map((t) => t.obligationId))] } } })
    : [];
  const termsOf = new Map<string, typeof terms>();
  for (const t of terms) termsOf.set(t.obligationId, [...(termsOf.get(t.obligationId) ?? []), t]);
  const today = todayUtc();
  return rows.map((r) => {
    let dueNowMinor: bigint | null = null;
    let termAmounts: bigint[] = [];
    const ts = termsOf.get(r.id) ?? [];
    if (ts.length) {
      try {
        const ev = evaluateTerms({
          amountMinor: r.amount_minor,
          registeredOn: fromDate(r.created_at),
          deadline: fromDate(r.deadline),
          today,
          terms: ts.map(termSpecOf),
          conditions: conditions
            .filter((c) => c.obligationId === r.id)
            .map((c) => ({ id: c.id, status: c.status as "waiting" | "satisfied" | "waived", satisfiedOn: c.satisfiedOn ? fromDate(c.satisfiedOn) : null })),
        });
        termAmounts = ev.terms.map((t) => t.amountMinor);
        const left = ev.dueMinor - r.allocated_minor;
        dueNowMinor = left > 0n ? left : 0n;
      } catch {
        // Malformed stored terms: no term signals for this obligation.
      }
    }
    return {
      id: r.id,
      organizationId: r.organization_id,
      reference: r.reference,
      paymentReference: r.payment_reference,
      invoiceNumber: r.invoice_number,
      organizationRole: r.organization_role,
      currency: r.currency,
      status: r.status,
      amountMinor: BigInt(r.amount_minor),
      allocatedMinor: BigInt(r.allocated_minor),
      version: Number(r.version),
      debtorName: r.debtor_name,
      creditorName: r.creditor_name,
      deadline: fromDate(r.deadline),
      expectedPaymentDate: fromDate(r.expected_payment_date),
      reportedPaymentDate: fromDate(r.reported_payment_date),
      reportedAmountMinor: r.reported_amount_minor === null ? null : BigInt(r.reported_amount_minor),
      reportedReference: r.reported_reference,
      dueNowMinor,
      termAmounts,
    };
  });
}

// What the organization's people taught about these payments' payers and suggestions: the
// parties each payer name paid in an accepted suggestion (counterparty_aliases, by the
// normalized payer name) and the suggestions rejected for each payment. Sets `aliases`,
// `aliasNames` and `rejected` on the facts given; two queries for the whole batch.
export type AttachMemoryInput = { organizationId: string; payments: PaymentFacts[]; withRejections: boolean };

export async function attachMemory(tx: Tx, { organizationId, payments, withRejections }: AttachMemoryInput): Promise<void> {
  if (payments.length === 0) return;
  const keys = [...new Set(payments.map((p) => comparableName(p.payerName)).filter((k) => k !== ""))];
  if (keys.length) {
    const rows = await tx.counterpartyAlias.findMany({
      where: { organizationId, aliasKey: { in: keys } },
      select: { aliasKey: true, partyKey: true, partyName: true, direction: true },
    });
    for (const p of payments) {
      const k = comparableName(p.payerName);
      const mine = rows.filter((r) => r.aliasKey === k && r.direction === p.direction);
      if (mine.length) {
        p.aliases = new Set(mine.map((r) => r.partyKey));
        p.aliasNames = [...new Set(mine.map((r) => r.partyName))];
      }
    }
  }
  if (withRejections) {
    const rejected = await tx.suggestionRejection.findMany({
      where: { organizationId, paymentId: { in: payments.map((p) => p.id) } },
      select: { paymentId: true, suggestionKey: true },
    });
    for (const p of payments) {
      const mine = rejected.filter((r) => r.paymentId === p.id);
      if (mine.length) p.rejected = new Set(mine.map((r) => r.suggestionKey));
    }
  }
}
