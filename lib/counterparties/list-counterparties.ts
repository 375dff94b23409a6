import type { Tx } from "@/lib/db/client";
import { groupCounterparties } from "@/lib/counterparties/group-counterparties";
import { counterpartyView } from "@/lib/counterparties/view";

// GET /counterparties: a page of the organization's counterparties, `q` a case-insensitive
// substring of the name or email.
export type ListCounterpartiesInput = { organizationId: string; q: string; limit: number; offset: number };

export async function listCounterparties(tx: Tx, input: ListCounterpartiesInput) {
  const q = input.q.trim().toLowerCase();
  const all = await groupCounterparties(tx, { organizationId: input.organizationId });
  const hits = q === "" ? all : all.filter((g) => g.name.toLowerCase().includes(q) || (g.email ?? "").toLowerCase().includes(q));
  return { items: hits.slice(input.offset, input.offset + input.limit).map(counterpartyView), limit: input.limit, offset: input.offset };
}
