import { trimEndChar } from "@/lib/strings";
import { sql as raw } from "kysely";
import type { Tx } from "@/lib/db/client";
import { query } from "@/lib/db/query";
import type { Principal } from "@/lib/auth/principal";
import { AppError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import type { UploadedFile } from "@/lib/http/body";
import { minorDigits } from "@/lib/money/format";
import { recordEvent } from "@/lib/events/record-event";
import { CURRENCIES, MAX_MINOR, toDate } from "@/lib/schemas/common";
import type { TPayment } from "@/lib/schemas/payments";
import type { TBankStatement, TImportStatementForm } from "@/lib/schemas/reconciliation";
import { MAX_REMITTANCE, type ParsedStatement, type ParsedTransaction, type StatementBalance } from "@/lib/bank-statements/types";
import { prepareBankStatementImport } from "@/lib/reconciliation/prepare-bank-statement-import";
import { accountNamespace, transactionIdentity } from "@/lib/bank-statements/identity";
import { attachMemory, findCandidates } from "@/lib/reconciliation/candidates";
import { decide, type Candidate, type PaymentFacts } from "@/lib/reconciliation/engine";
import { loadSettingsRow, toEngineSettings, toStatementView } from "@/lib/reconciliation/view";
import { allocateBasketPayment } from "@/lib/account-links/allocate-basket-payment";
import { allocateBatch, type PlannedAllocation } from "@/lib/reconciliation/allocate-batch";
import { allocateShortPaid, type ShortPaid } from "@/lib/reconciliation/allocate-short-paid";
import { present } from "@/lib/present";

export type ImportBankStatementInput = {
  organizationId: string;
  principal: Principal;
  body: TImportStatementForm;
  files: Record<string, UploadedFile>;
  // the file as prepareBankStatementImport read it before the transaction (read here otherwise)
  parsed?: ParsedStatement;
};

const CHUNK = 1000;
const MAX_TEXT = 500; // payer_name and reference, like POST /payments

type Row = {
  t: ParsedTransaction;
  position: number;
  amountMinor: bigint;
  namespace: string; // bank:<IBAN or account id> of the transaction's account
  identity: string;
  remittance: string;
  reference: string;
  payerName: string;
  paymentId: string | null; // set when created
  duplicateOf: string | null;
  match: "auto_allocated" | "suggested" | "unmatched";
};

function invalid(message: string): AppError {
  return new AppError("validation_failed", message);
}

// Decimal string of the parser ("1234.5") -> minor units, exactly; null when it has more
// decimals than the currency.
function toMinor(amount: string, currency: string): bigint | null {
  const m = /^(\d+)(?:\.(\d*))?$/.exec(amount);
  if (!m) return null;
  const digits = minorDigits(currency);
  const fraction = trimEndChar(m[2] ?? "", "0");
  if (fraction.length > digits) return null;
  return BigInt(m[1]) * 10n ** BigInt(digits) + BigInt(fraction.padEnd(digits, "0") || "0");
}

// The statement's opening and closing balances as signed minor units (a balance in a
// currency the conversion does not fit, or with too many decimals, is left out).
function balanceColumns(statement: ParsedStatement) {
  const signed = (b: StatementBalance | null | undefined) => {
    const currency = b?.currency || statement.account.currency;
    if (!b || !/^[A-Z]{3}$/.test(currency)) return { minor: null, on: null };
    const minor = toMinor(b.amount, currency);
    if (minor === null || minor > MAX_MINOR) return { minor: null, on: null };
    return { minor: b.credit ? minor : -minor, on: /^\d{4}-\d{2}-\d{2}$/.test(b.on) ? toDate(b.on) : null };
  };
  const o = signed(statement.balances?.opening);
  const c = signed(statement.balances?.closing);
  return { openingBalanceMinor: o.minor, openingBalanceOn: o.on, closingBalanceMinor: c.minor, closingBalanceOn: c.on };
}

// POST /bank-statements: reads the statement, records one payment per booked transaction
// (skipping those already recorded under the same external reference), suggests matches,
// allocates the `exact` single-obligation ones when asked, and records the import, all in
// the caller's transaction.
//
// Built for big files: payments, items and events are written with multi-row statements in
// chunks, candidates are read with one query per signal for the whole statement
// (lib/reconciliation/candidates.ts), and the automatic allocations are applied together
// (lib/reconciliation/allocate-batch.ts, with allocatePayment's locking rules).
export async function importBankStatement(tx: Tx, input: ImportBankStatementInput): Promise<TBankStatement> {
  const { organizationId } = input;
  const statement = input.parsed ?? (await prepareBankStatementImport(input.body, input.files));
  const autoAllocate = input.body.auto_allocate !== "false";

  const rows: Row[] = statement.transactions.map((t, position) => {
    const label = `transaction ${position + 1}${t.accountServicerReference ? ` (${t.accountServicerReference})` : ""}`;
    if (!/^[A-Z]{3}$/.test(t.currency)) throw new AppError("statement_unreadable", `${label}: no currency code`);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(t.bookedOn)) throw new AppError("statement_unreadable", `${label}: no booking or value date`);
    const amountMinor = toMinor(t.amount, t.currency);
    if (amountMinor === null) throw invalid(`${label}: amount ${t.amount} has more decimals than ${t.currency} allows`);
    if (amountMinor > MAX_MINOR) throw invalid(`${label}: amount ${t.amount} is too large`);
    const remittance = [t.structuredReference, t.unstructured]
      .filter((s) => s !== "")
      .join(" ")
      .slice(0, MAX_REMITTANCE);
    return {
      t,
      position,
      amountMinor,
      namespace: accountNamespace(statement, t),
      identity: transactionIdentity(t, statement),
      remittance,
      reference: (t.structuredReference || t.unstructured).slice(0, MAX_TEXT),
      payerName: t.counterpartyName.slice(0, MAX_TEXT),
      paymentId: null,
      duplicateOf: null,
      match: "unmatched",
    };
  });

  // 1. Payments: INSERT ... ON CONFLICT DO NOTHING on (organization, namespace, id); what
  //    is not returned was recorded before (or twice in this file) and is a duplicate.
  const now = new Date();
  // A booking in a currency outside the service's seven, or of zero, becomes no payment: it
  // stays an item with neither payment_id nor duplicate_of (entries - payments_created -
  // duplicates_skipped of them).
  const held = (r: Row) => (CURRENCIES as readonly string[]).includes(r.t.currency);
  // A statement none of whose transactions is in a currency the service holds (the Polish
  // mBank sample: PLN) is refused as a whole; a mixed one imports what it can.
  if (rows.length > 0 && !rows.some(held)) {
    const foreign = [...new Set(rows.map((r) => r.t.currency))].join(", ");
    throw invalid(`file: the statement's transactions are in ${foreign}, which this service does not hold (it holds ${CURRENCIES.join(", ")})`);
  }
  const payable = rows.filter((r) => r.amountMinor > 0n && held(r));
  for (let i = 0; i < payable.length; i += CHUNK) {
    const chunk = payable.slice(i, i + CHUNK);
    const ids = chunk.map(() => newId());
    type Unnested = {
      id: string;
      amount: bigint;
      currency: string;
      direction: string;
      received_on: Date;
      payer: string;
      reference: string;
      ext: string;
      ns: string;
      n: number;
    };
    const unnested = raw<Unnested>`unnest(${ids}::uuid[], ${chunk.map((r) => r.amountMinor)}::bigint[], ${chunk.map((r) => r.t.currency)}::text[],
      ${chunk.map((r) => r.t.direction)}::text[], ${chunk.map((r) => r.t.bookedOn)}::date[], ${chunk.map((r) => r.payerName)}::text[],
      ${chunk.map((r) => r.reference)}::text[], ${chunk.map((r) => r.identity)}::text[], ${chunk.map((r) => r.namespace)}::text[]) WITH ORDINALITY`;
    const created = await query(tx)
      .insertInto("payments")
      .columns([
        "id",
        "organization_id",
        "amount_minor",
        "allocated_minor",
        "currency",
        "direction",
        "received_on",
        "payer_name",
        "reference",
        "external_namespace",
        "external_id",
        "note",
        "created_at",
        "updated_at",
      ])
      .expression((eb) =>
        eb
          .selectFrom(unnested.as<"p">(raw`p(id, amount, currency, direction, received_on, payer, reference, ext, ns, n)`))
          .select((s) => [
            "p.id",
            raw<string>`${organizationId}::uuid`.as("organization_id"),
            "p.amount",
            s.lit(0).as("allocated_minor"),
            "p.currency",
            "p.direction",
            "p.received_on",
            "p.payer",
            "p.reference",
            "p.ns",
            "p.ext",
            s.val("").as("note"),
            raw<Date>`${now}::timestamptz`.as("created_at"),
            raw<Date>`${now}::timestamptz`.as("updated_at"),
          ])
          .orderBy("p.n"),
      )
      .onConflict((oc) => oc.columns(["organization_id", "external_namespace", "external_id"]).doNothing())
      .returning(["id", "external_namespace as ns", "external_id"])
      .execute();
    const key = (ns: string | null, id: string | null) => `${ns}\u0000${id}`;
    const createdByIdentity = new Map(created.map((c) => [key(c.ns, c.external_id), c.id]));
    for (const r of chunk) {
      const id = createdByIdentity.get(key(r.namespace, r.identity));
      if (id !== undefined) {
        r.paymentId = id;
        createdByIdentity.delete(key(r.namespace, r.identity)); // a second row with the same identity is a duplicate
      }
    }
  }
  const dupes = payable.filter((r) => r.paymentId === null);
  for (let i = 0; i < dupes.length; i += CHUNK) {
    const chunk = dupes.slice(i, i + CHUNK);
    const keys = raw<{ ns: string; ext: string }>`unnest(${chunk.map((r) => r.namespace)}::text[], ${chunk.map((r) => r.identity)}::text[])`;
    const found = await query(tx)
      .selectFrom("payments as p")
      .innerJoin(keys.as<"k">(raw`k(ns, ext)`), (j) => j.onRef("p.external_namespace", "=", "k.ns").onRef("p.external_id", "=", "k.ext"))
      .select(["p.id", "p.external_namespace as ns", "p.external_id"])
      .where("p.organization_id", "=", organizationId)
      .execute();
    const byIdentity = new Map(found.map((f) => [`${f.ns}\u0000${f.external_id}`, f.id]));
    for (const r of chunk) r.duplicateOf = byIdentity.get(`${r.namespace}\u0000${r.identity}`) ?? null;
  }
  const createdRows = rows.filter((r) => r.paymentId !== null);

  const paymentView = (r: Row): TPayment => ({
    id: present(r.paymentId, "payment id"),
    organization_id: organizationId,
    amount_minor: r.amountMinor.toString(),
    currency: r.t.currency as TPayment["currency"],
    direction: r.t.direction,
    received_on: r.t.bookedOn,
    payer_name: r.payerName,
    reference: r.reference,
    external_reference: { namespace: r.namespace, id: r.identity },
    note: "",
    allocated_minor: "0",
    unallocated_minor: r.amountMinor.toString(),
    allocations: [],
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
    status: "unallocated",
    dismissal: null,
  });
  await recordEvent(tx, {
    organizationId,
    principal: input.principal,
    events: createdRows.map((r) => ({ type: "payment.recorded" as const, paymentId: present(r.paymentId, "payment id"), data: { payment: paymentView(r) } })),
  });

  // 2. Suggestions for every created payment, candidates read once for the whole file. The
  //    automatic allocations are applied in file order; what they change (allocated amount,
  //    version, status) is carried to the later payments' candidates.
  const facts: PaymentFacts[] = createdRows.map((r) => ({
    id: present(r.paymentId, "payment id"),
    organizationId,
    currency: r.t.currency,
    direction: r.t.direction,
    amountMinor: r.amountMinor,
    allocatedMinor: 0n,
    payerName: r.t.counterpartyName,
    remittance: r.remittance,
    receivedOn: r.t.bookedOn,
  }));
  const settings = toEngineSettings(await loadSettingsRow(tx, { organizationId }));
  await attachMemory(tx, { organizationId, payments: facts, withRejections: false });
  const candidates = await findCandidates(tx, { organizationId, payments: facts });
  const changed = new Map<string, Pick<Candidate, "allocatedMinor" | "version" | "status">>();
  const plan: PlannedAllocation[] = [];
  const shortPaid: ShortPaid[] = [];
  const hasSuggestion = new Set<string>();
  for (const [i, f] of facts.entries()) {
    const cands = (candidates.get(f.id) ?? []).map((c) => {
      const ch = changed.get(c.id);
      return ch ? { ...c, ...ch } : c;
    });
    const d = decide(f, cands, settings);
    if (d.suggestions.length > 0) hasSuggestion.add(f.id);
    if (!autoAllocate || !d.auto) continue;
    const auto = d.auto.suggestion;
    const a = auto.allocations[0];
    const amount = BigInt(a.amount_minor);
    const c = present(
      cands.find((x) => x.id === a.obligation_id),
      "candidate",
    );
    // §12 tolerance: a payment short within the tolerance is allocated and the shortfall
    // credited (§9) in this transaction, one by one after the batch (docs/reconciliation.md).
    if (d.auto.shortfall) {
      shortPaid.push({ paymentId: f.id, obligationId: a.obligation_id, amountMinor: amount, shortfall: d.auto.shortfall });
      const settledNow = c.allocatedMinor + amount + d.auto.shortfall.shortMinor;
      changed.set(a.obligation_id, {
        allocatedMinor: settledNow,
        version: c.version + 2,
        status: settledNow === c.amountMinor ? "RECONCILED" : "PARTIALLY_RECONCILED",
      });
      continue;
    }
    const allocated = c.allocatedMinor + amount;
    plan.push({
      paymentId: f.id,
      payment: paymentView(createdRows[i]),
      obligationId: a.obligation_id,
      obligationReference: a.obligation_reference,
      amountMinor: amount,
      expectedVersion: a.expected_version,
    });
    changed.set(a.obligation_id, {
      allocatedMinor: allocated,
      version: c.version + 1,
      status: allocated === c.amountMinor ? "RECONCILED" : "PARTIALLY_RECONCILED",
    });
  }
  const allocatedPayments = await allocateBatch(tx, { organizationId, principal: input.principal, plan });
  for (const id of await allocateShortPaid(tx, { organizationId, principal: input.principal, items: shortPaid })) allocatedPayments.add(id);
  // A remittance naming a basket's reference (lib/account-links/allocate-basket-payment.ts).
  if (autoAllocate) {
    for (const r of createdRows) {
      if (!r.paymentId || allocatedPayments.has(r.paymentId) || !/bsk/i.test(r.remittance)) continue;
      const paid = await allocateBasketPayment(tx, { organizationId, principal: input.principal, paymentId: r.paymentId, remittance: r.remittance });
      if (paid) allocatedPayments.add(r.paymentId);
    }
  }
  let autoAllocated = 0;
  let suggested = 0;
  for (const r of createdRows) {
    if (allocatedPayments.has(r.paymentId ?? "")) {
      r.match = "auto_allocated";
      autoAllocated++;
    } else if (hasSuggestion.has(r.paymentId ?? "")) {
      r.match = "suggested";
      suggested++;
    }
  }

  // 3. The import and its items.
  const id = newId();
  const credits = rows.filter((r) => r.t.direction === "incoming").length;
  await tx.bankStatement.create({
    data: {
      id,
      organizationId,
      format: statement.format,
      filename: (input.files.file?.name ?? "").slice(0, 255),
      sha256: present(input.files.file, "statement file").sha256,
      accountIban: statement.account.iban,
      accountIdentifier: statement.account.identifier,
      accountCurrency: statement.account.currency,
      periodFrom: statement.period.from ? toDate(statement.period.from) : null,
      periodTo: statement.period.to ? toDate(statement.period.to) : null,
      entries: rows.length,
      credits,
      debits: rows.length - credits,
      paymentsCreated: createdRows.length,
      duplicatesSkipped: dupes.length,
      autoAllocated,
      suggested,
      createdAt: now,
      ...balanceColumns(statement),
    },
  });
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK);
    type Unnested = {
      position: number;
      payment_id: string | null;
      duplicate_of: string | null;
      direction: string;
      amount: bigint;
      currency: string;
      booked_on: Date;
      counterparty: string;
      remittance: string;
      bank_reference: string;
      match: string;
    };
    const unnested = raw<Unnested>`unnest(${chunk.map((r) => r.position)}::int[], ${chunk.map((r) => r.paymentId)}::uuid[],
      ${chunk.map((r) => r.duplicateOf)}::uuid[], ${chunk.map((r) => r.t.direction)}::text[], ${chunk.map((r) => r.amountMinor)}::bigint[],
      ${chunk.map((r) => r.t.currency)}::text[], ${chunk.map((r) => r.t.bookedOn)}::date[], ${chunk.map((r) => r.t.counterpartyName)}::text[],
      ${chunk.map((r) => r.remittance)}::text[], ${chunk.map((r) => r.identity)}::text[], ${chunk.map((r) => r.match)}::text[])`;
    await query(tx)
      .insertInto("bank_statement_items")
      .columns([
        "id",
        "organization_id",
        "statement_id",
        "position",
        "payment_id",
        "duplicate_of",
        "direction",
        "amount_minor",
        "currency",
        "booked_on",
        "counterparty_name",
        "remittance",
        "bank_reference",
        "match",
      ])
      .expression((eb) =>
        eb
          .selectFrom(
            unnested.as<"i">(
              raw`i(position, payment_id, duplicate_of, direction, amount, currency, booked_on, counterparty, remittance, bank_reference, match)`,
            ),
          )
          .select([
            raw<string>`gen_random_uuid()`.as("id"),
            raw<string>`${organizationId}::uuid`.as("organization_id"),
            raw<string>`${id}::uuid`.as("statement_id"),
            "i.position",
            "i.payment_id",
            "i.duplicate_of",
            "i.direction",
            "i.amount",
            "i.currency",
            "i.booked_on",
            "i.counterparty",
            "i.remittance",
            "i.bank_reference",
            "i.match",
          ]),
      )
      .execute();
  }
  const view = toStatementView(present(await tx.bankStatement.findFirst({ where: { id, organizationId } }), "imported statement"));
  await recordEvent(tx, { organizationId, type: "bank_statement.imported", principal: input.principal, data: { bank_statement: view } });
  return view;
}
