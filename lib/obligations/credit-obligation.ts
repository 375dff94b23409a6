import type { Tx } from "@/lib/db/client";
import type { Principal } from "@/lib/auth/principal";
import type { TCreateCredit, TCreditResult } from "@/lib/schemas/obligations";
import { applyCredit } from "@/lib/obligations/apply-credit";

export type CreditObligationInput = { organizationId: string; obligationId: string; principal: Principal; body: TCreateCredit };

// POST /obligations/{id}/credits: a credit note, cancellation, write-off, discount or bank
// fee settles part (or all) of the obligation without money; 201 { credit, obligation }.
export async function creditObligation(tx: Tx, input: CreditObligationInput): Promise<TCreditResult> {
  const { credit, result } = await applyCredit(tx, input);
  // biome-ignore lint/style/noNonNullAssertion: mutateObligation returns the obligation it changed
  return { credit, obligation: result.obligation! };
}
