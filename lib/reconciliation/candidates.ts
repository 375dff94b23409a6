import type { Tx } from "@/lib/db";
import { evaluateTerms } from "@/lib/obligations/terms";
import { termSpecOf } from "@/lib/obligations/view";
import { fromDate, todayUtc } from "@/lib/schemas/common";
import { SUBSET_MAX_CANDIDATES, rfReferencesIn, type Candidate, type PaymentFacts } from "@/lib/reconciliation/engine";
import { MIN_IDENTIFIER_LENGTH, compact, nameKey, tokenize } from "@/lib/reconciliation/text";
import { present } from "@/lib/present";

// Narrows the obligations the engine looks at, for one payment or a whole import, with
// one indexed query per signal for the whole batch (never a scan of all obligations per
// transaction). Every query is limited to the organization and to open obligations
// (status <> 'RECONCILED'); the engine applies the currency/direction rules again.
//   payment_reference : unique index (organization_id, payment_reference)
//   obligation reference : unique index (organization_id, reference)
//   invoice number    : (organization_id, upper(invoice_number)) over the remittance's tokens
//                       and runs of two or three tokens
//   amount            : (organization_id, currency, amount_minor - allocated_minor), at most
//                       AMOUNT_LIMIT per amount, earliest deadline first
//   counterparty      : (organization_id, currency, lower(left(name, 4))) for the subset-sum,
//                       at most SUBSET_MAX_CANDIDATES per name key, outstanding <= amount

export const AMOUNT_LIMIT = 20;

type Row = {
  id: string;
  organization_id: string;
  reference: string;
  payment_reference: string;
  invoice_number: string;
  organization_role: string;
  currency: string;
  status: string;
  amount_minor: bigint;
  allocated_minor: bigint;
  version: number;
  debtor_name: string;
  creditor_name: string;
  deadline: Date;
  expected_payment_date: Date | null;
  reported_payment_date: Date | null;
  reported_amount_minor: bigint | null;
  reported_reference: string;
  created_at: Date;
};

const COLUMNS = `o.id::text AS id, o.organization_id::text AS organization_id, o.reference, o.payment_reference, o.invoice_number,
  o.organization_role, o.currency, o.status, o.amount_minor, o.allocated_minor, o.version, o.debtor_name, o.creditor_name,
  o.deadline, o.expected_payment_date, o.reported_payment_date, o.reported_amount_minor, o.reported_reference, o.created_at`;

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
  const amountKeys = new Map<string, { currency: string; amount: string }>();
  const nameKeys = new Map<string, { currency: string; key: string; direction: string; max: bigint }>();
  for (const p of payments) {
    const tokens = present(tokensOf.get(p.id), "remittance tokens");
    for (const r of rfReferencesIn(p.remittance, tokens)) rfs.add(r);
    for (const r of obligationReferenceKeys(tokens)) refs.add(r);
    for (const k of identifierKeys(tokens)) idKeys.add(k);
    const unallocated = p.amountMinor - p.allocatedMinor;
    if (unallocated <= 0n) continue;
    amountKeys.set(`${p.currency}:${unallocated}`, { currency: p.currency, amount: unallocated.toString() });
    const key = nameKey(p.payerName);
    if (key.length >= 2) {
      const k = `${p.currency}:${p.direction}:${key}`;
      const prev = nameKeys.get(k);
      nameKeys.set(k, { currency: p.currency, key, direction: p.direction, max: prev && prev.max > unallocated ? prev.max : unallocated });
    }
  }

  const rows = new Map<string, Row>();
  const add = (rs: Row[]) => {
    for (const r of rs) rows.set(r.id, r);
  };
  const foundByName = new Set<string>();
  const org = organizationId;
  if (rfs.size) {
    add(
      await tx.$queryRawUnsafe<Row[]>(
        `SELECT ${COLUMNS} FROM obligations o WHERE o.organization_id = $1::uuid AND o.payment_reference = ANY($2::text[]) AND o.status <> 'RECONCILED'`,
        org,
        [...rfs],
      ),
    );
  }
  if (refs.size) {
    add(
      await tx.$queryRawUnsafe<Row[]>(
        `SELECT ${COLUMNS} FROM obligations o WHERE o.organization_id = $1::uuid AND o.reference = ANY($2::text[]) AND o.status <> 'RECONCILED'`,
        org,
        [...refs],
      ),
    );
  }
  if (idKeys.size) {
    add(
      await tx.$queryRawUnsafe<Row[]>(
        `SELECT ${COLUMNS} FROM obligations o WHERE o.organization_id = $1::uuid AND upper(o.invoice_number) = ANY($2::text[]) AND o.status <> 'RECONCILED'`,
        org,
        [...idKeys],
      ),
    );
  }
  if (amountKeys.size) {
    const ks = [...amountKeys.values()];
    add(
      await tx.$queryRawUnsafe<Row[]>(
        `SELECT c.* FROM unnest($2::text[], $3::bigint[]) AS k(currency, amount)
       CROSS JOIN LATERAL (
         SELECT ${COLUMNS} FROM obligations o
         WHERE o.organization_id = $1::uuid AND o.currency = k.currency AND (o.amount_minor - o.allocated_minor) = k.amount AND o.status <> 'RECONCILED'
         ORDER BY o.deadline, o.id LIMIT ${AMOUNT_LIMIT}) c`,
        org,
        ks.map((k) => k.currency),
        ks.map((k) => k.amount),
      ),
    );
  }
  for (const direction of ["incoming", "outgoing"] as const) {
    const ks = [...nameKeys.values()].filter((k) => k.direction === direction);
    if (!ks.length) continue;
    const col = direction === "incoming" ? "debtor_name" : "creditor_name";
    const found = await tx.$queryRawUnsafe<Row[]>(
      `SELECT c.* FROM unnest($2::text[], $3::text[], $4::bigint[]) AS k(currency, key, max)
       CROSS JOIN LATERAL (
         SELECT ${COLUMNS} FROM obligations o
         WHERE o.organization_id = $1::uuid AND o.currency = k.currency AND lower(left(o.${col}, 4)) = k.key AND o.status <> 'RECONCILED'
           AND (o.amount_minor - o.allocated_minor) <= k.max
         ORDER BY o.deadline, o.id LIMIT ${SUBSET_MAX_CANDIDATES}) c`,
      org,
      ks.map((k) => k.currency),
      ks.map((k) => k.key),
      ks.map((k) => k.max.toString()),
    );
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
    if (c.invoiceNumber) put(`inv:${c.invoiceNumber.toUpperCase()}`, c);
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
  take(`amt:${p.currency}:${p.amountMinor - p.allocatedMinor}`);
  const key = nameKey(p.payerName);
  if (key.length >= 2) take(`name:${p.direction}:${p.currency}:${key}`);
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
