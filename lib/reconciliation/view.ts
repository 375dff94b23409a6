import type { Prisma } from "@/lib/generated/prisma/client";
import type { Tx } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { fromDate } from "@/lib/schemas/common";
import type { TBankStatement, TBankStatementDetail } from "@/lib/schemas/reconciliation";

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

export function toItemView(i: ItemRow): TBankStatementDetail["items"][number] {
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
  };
}

export type LoadStatementInput = { organizationId: string; id: string };

export async function loadStatement(tx: Tx, { organizationId, id }: LoadStatementInput): Promise<StatementRow> {
  if (!isUuid(id)) throw notFoundStatement();
  const row = await tx.bankStatement.findFirst({ where: { id, organizationId } });
  if (!row) throw notFoundStatement();
  return row;
}
