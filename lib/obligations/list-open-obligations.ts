import type { Tx } from "@/lib/db/client";
import { OBLIGATION_LINE_SELECT } from "@/lib/obligations/load";
import { parseDecimalToMinor } from "@/lib/money/format";

export type OpenObligation = {
  id: string;
  reference: string;
  counterparty: string;
  invoice_number: string;
  currency: string;
  amount_minor: string;
  outstanding_minor: string;
  deadline: string;
  version: number;
};

// Obligations that can still take an allocation: not RECONCILED (so allocated < amount),
// optionally of one currency; newest first. What the payment allocation form offers.
// `search` narrows them (with thousands open, the form shows the matches): reference,
// payment reference (spaces ignored), invoice number or counterparty, case-insensitive
// substrings, or an amount typed as a decimal (the amount or what is outstanding).
export type ListOpenObligationsInput = { organizationId: string; currency?: string; limit?: number; search?: string };

export async function listOpenObligations(tx: Tx, input: ListOpenObligationsInput): Promise<OpenObligation[]> {
  const { organizationId, ...opts } = input;
  const q = opts.search?.trim().slice(0, 200) ?? "";
  const amount = q && opts.currency ? parseDecimalToMinor(q, opts.currency) : null;
  const contains = (v: string) => ({ contains: v, mode: "insensitive" as const });
  const search = q
    ? {
        OR: [
          { reference: contains(q) },
          { paymentReference: contains(q.replace(/\s+/g, "")) },
          { invoiceNumber: contains(q) },
          { debtorName: contains(q) },
          { creditorName: contains(q) },
          ...(amount?.ok ? [{ amountMinor: BigInt(amount.minor) }] : []),
        ],
      }
    : {};
  const rows = await tx.obligation.findMany({
    where: { organizationId, status: { not: "RECONCILED" }, ...(opts.currency ? { currency: opts.currency } : {}), ...search },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: Math.min(Math.max(opts.limit ?? 100, 1), 500),
    select: { ...OBLIGATION_LINE_SELECT, version: true },
  });
  return rows
    .filter((o) => o.amountMinor > o.allocatedMinor)
    .map((o) => ({
      id: o.id,
      reference: o.reference,
      counterparty: o.organizationRole === "creditor" ? o.debtorName : o.creditorName,
      invoice_number: o.invoiceNumber,
      currency: o.currency,
      amount_minor: o.amountMinor.toString(),
      outstanding_minor: (o.amountMinor - o.allocatedMinor).toString(),
      deadline: o.deadline.toISOString().slice(0, 10),
      version: o.version,
    }));
}
