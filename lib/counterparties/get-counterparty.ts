import type { Tx } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { groupCounterparties } from "@/lib/counterparties/group-counterparties";
import { counterpartyView } from "@/lib/counterparties/view";

// GET /counterparties/{id}: the counterparty with its open obligations (oldest first); an id
// no obligation of this organization derives to is 404.
export async function getCounterparty(tx: Tx, input: { organizationId: string; counterpartyId: string }) {
  const [g] = await groupCounterparties(tx, { organizationId: input.organizationId, only: input.counterpartyId.toLowerCase() });
  if (!g) throw new AppError("not_found", "counterparty not found");
  return { ...counterpartyView(g), obligations: g.obligations };
}
