import type { Tx } from "@/lib/db/client";
import { query } from "@/lib/db/query";
import { counterpartyKey } from "@/lib/counterparties/counterparty-key";
import { todayUtc } from "@/lib/schemas/common";
import type { TCounterparty, TCounterpartyObligation } from "@/lib/schemas/counterparties";

export type CounterpartyGroup = TCounterparty & { key: string; obligations: TCounterpartyObligation[]; obligationIds: string[] };

// Every counterparty of the organization with its figures, read in one scan of its
// creditor-role obligations (the grouping key is derived per row, lib/counterparties/counterparty-key.ts).
// Open = not RECONCILED and not cancelled; overdue = open with a deadline before today (UTC).
// `only`: keep just the counterparty with this id (the detail and the account link).
// Sorted by name (case-insensitive), then id.
export async function groupCounterparties(tx: Tx, input: { organizationId: string; only?: string; today?: string }): Promise<CounterpartyGroup[]> {
  const today = input.today ?? todayUtc();
  const rows = await query(tx)
    .selectFrom("obligations")
    .select([
      "id",
      "reference",
      "invoice_number as invoiceNumber",
      "debtor_name as debtorName",
      "debtor_email as debtorEmail",
      "currency",
      "amount_minor as amountMinor",
      "allocated_minor as allocatedMinor",
      "deadline",
      "status",
      "version",
      "cancelled_at as cancelledAt",
    ])
    .where("organization_id", "=", input.organizationId)
    .where("organization_role", "=", "creditor")
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .execute();
  const groups = new Map<string, CounterpartyGroup & { out: Map<string, bigint>; due: Map<string, bigint> }>();
  for (const r of rows) {
    const k = counterpartyKey(input.organizationId, r.debtorEmail, r.debtorName);
    if (!k || (input.only !== undefined && k.id !== input.only)) continue;
    let g = groups.get(k.id);
    if (!g) {
      // the newest obligation names the counterparty
      g = {
        id: k.id,
        key: k.key,
        name: r.debtorName,
        email: r.debtorEmail.trim() === "" ? null : r.debtorEmail.trim(),
        open_count: 0,
        outstanding: [],
        overdue: [],
        obligations: [],
        obligationIds: [],
        out: new Map(),
        due: new Map(),
      };
      groups.set(k.id, g);
    }
    g.obligationIds.push(r.id);
    const outstanding = BigInt(r.amountMinor) - BigInt(r.allocatedMinor);
    if (r.status === "RECONCILED" || r.cancelledAt !== null || outstanding <= 0n) continue;
    const deadline = r.deadline.toISOString().slice(0, 10);
    const overdue = deadline < today;
    g.open_count += 1;
    g.out.set(r.currency, (g.out.get(r.currency) ?? 0n) + outstanding);
    if (overdue) g.due.set(r.currency, (g.due.get(r.currency) ?? 0n) + outstanding);
    g.obligations.push({
      id: r.id,
      reference: r.reference,
      invoice_number: r.invoiceNumber,
      status: r.status,
      currency: r.currency as TCounterpartyObligation["currency"],
      amount_minor: BigInt(r.amountMinor).toString(),
      outstanding_minor: outstanding.toString(),
      deadline,
      overdue,
      version: r.version,
    });
  }
  const totals = (m: Map<string, bigint>) =>
    [...m.entries()]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([currency, v]) => ({ currency: currency as TCounterparty["outstanding"][number]["currency"], amount_minor: v.toString() }));
  return [...groups.values()]
    .map(({ out, due, ...g }) => ({ ...g, outstanding: totals(out), overdue: totals(due), obligations: g.obligations.reverse() }))
    .sort((a, b) => a.name.localeCompare(b.name, "en", { sensitivity: "base" }) || (a.id < b.id ? -1 : 1));
}
