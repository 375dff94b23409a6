import type { Prisma } from "@/lib/generated/prisma/client";
import type { Tx } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { fromDate } from "@/lib/schemas/common";
import type { TBankStatement, TBankStatementDetail, TReconciliationSettings, TTolerance } from "@/lib/schemas/reconciliation";
import type { EngineSettings } from "@/lib/reconciliation/engine";

// Read side of bank statement imports: rows -> wire shapes (lib/schemas/reconciliation.ts).

type StatementRow = Prisma.BankStatementGetPayload<object>;
type ItemRow = Prisma.BankStatementItemGetPayload<object>;

export const notFoundStatement = () => new AppError("not_found", "bank statement not found");

export function toStatementView(s: StatementRow): TBankStatement {
  return {
    id: s.id,
    format: s.format as TBankStatement["format"],
    account: { iban: s.accountIban, identifier: s.accountIdentifier, currency: s.accountCurrency },
    period: { from: fromDate(s.periodFrom), to: fromDate(s.periodTo) },
    entries: s.entries,
    credits: s.credits,
    debits: s.debits,
    payments_created: s.paymentsCreated,
    duplicates_skipped: s.duplicatesSkipped,
    auto_allocated: s.autoAllocated,
    suggested: s.suggested,
    created_at: s.createdAt.toISOString(),
  };
}

type PaymentState = TBankStatementDetail["items"][number]["payment_state"];

export function toItemView(i: ItemRow, paymentState: PaymentState = null): TBankStatementDetail["items"][number] {
  return {
    index: i.position,
    payment_id: i.paymentId,
    duplicate_of: i.duplicateOf,
    direction: i.direction as "incoming" | "outgoing",
    amount_minor: i.amountMinor.toString(),
    currency: i.currency as TBankStatementDetail["items"][number]["currency"],
    booked_on: fromDate(i.bookedOn),
    counterparty_name: i.counterpartyName,
    remittance: i.remittance,
    bank_reference: i.bankReference,
    match: i.match as TBankStatementDetail["items"][number]["match"],
    payment_state: paymentState,
  };
}

// A stored balance (signed minor units) -> wire; null when the statement had none.
export function toBalanceView(minor: bigint | null, on: Date | null, currency: string): TBankStatementDetail["balances"]["opening"] {
  if (minor === null) return null;
  return { amount_minor: (minor < 0n ? -minor : minor).toString(), side: minor < 0n ? "debit" : "credit", currency, on: fromDate(on) };
}

export type LoadStatementInput = { organizationId: string; id: string };

export async function loadStatement(tx: Tx, { organizationId, id }: LoadStatementInput): Promise<StatementRow> {
  if (!isUuid(id)) throw notFoundStatement();
  const row = await tx.bankStatement.findFirst({ where: { id, organizationId } });
  if (!row) throw notFoundStatement();
  return row;
}

// ------------------------------------------------------------------ settings (§12)

type SettingsRow = Prisma.ReconciliationSettingGetPayload<object>;

export function toSettingsView(row: SettingsRow | null): TReconciliationSettings {
  if (!row) return { auto_allocate: "reference_only", tolerance: null, updated_at: "" };
  const tolerance =
    row.toleranceMaxMinor !== null && row.toleranceMaxBasisPoints !== null && row.toleranceKind !== null
      ? { max_minor: row.toleranceMaxMinor.toString(), max_basis_points: row.toleranceMaxBasisPoints, kind: row.toleranceKind as TTolerance["kind"] }
      : null;
  return { auto_allocate: row.autoAllocate as TReconciliationSettings["auto_allocate"], tolerance, updated_at: row.updatedAt.toISOString() };
}

export function toEngineSettings(row: SettingsRow | null): EngineSettings {
  const v = toSettingsView(row);
  return {
    autoAllocate: v.auto_allocate,
    tolerance: v.tolerance ? { maxMinor: BigInt(v.tolerance.max_minor), maxBasisPoints: v.tolerance.max_basis_points, kind: v.tolerance.kind } : null,
  };
}

export type LoadSettingsInput = { organizationId: string };

export async function loadSettingsRow(tx: Tx, { organizationId }: LoadSettingsInput): Promise<SettingsRow | null> {
  return tx.reconciliationSetting.findUnique({ where: { organizationId } });
}
