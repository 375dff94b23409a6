import type { Tx } from "@/lib/db/client";
import type { TReconciliationSettings } from "@/lib/schemas/reconciliation";
import { loadSettingsRow, toSettingsView } from "@/lib/reconciliation/view";

export type GetReconciliationSettingsInput = { organizationId: string };

// GET /reconciliation-settings: the organization's settings, the defaults when never set.
export async function getReconciliationSettings(tx: Tx, input: GetReconciliationSettingsInput): Promise<TReconciliationSettings> {
  return toSettingsView(await loadSettingsRow(tx, input));
}
