import type { Tx } from "@/lib/db/client";
import type { Principal } from "@/lib/auth/principal";
import { recordEvent } from "@/lib/events/record-event";
import type { TReconciliationSettings, TReconciliationSettingsInput } from "@/lib/schemas/reconciliation";
import { loadSettingsRow, toSettingsView } from "@/lib/reconciliation/view";

export type PutReconciliationSettingsInput = { organizationId: string; principal: Principal; body: TReconciliationSettingsInput };

// PUT /reconciliation-settings: replaces the settings (owner or admin, checked by the
// operation's permission); event `reconciliation_settings.updated` with before and after.
export async function putReconciliationSettings(tx: Tx, input: PutReconciliationSettingsInput): Promise<TReconciliationSettings> {
  const { organizationId, body } = input;
  const before = toSettingsView(await loadSettingsRow(tx, { organizationId }));
  const data = {
    autoAllocate: body.auto_allocate,
    toleranceMaxMinor: body.tolerance ? BigInt(body.tolerance.max_minor) : null,
    toleranceMaxBasisPoints: body.tolerance ? body.tolerance.max_basis_points : null,
    toleranceKind: body.tolerance ? body.tolerance.kind : null,
    updatedAt: new Date(),
  };
  const row = await tx.reconciliationSetting.upsert({ where: { organizationId }, create: { organizationId, ...data }, update: data });
  const after = toSettingsView(row);
  await recordEvent(tx, {
    organizationId,
    type: "reconciliation_settings.updated",
    principal: input.principal,
    data: { reconciliation_settings: after },
    detail: { before },
  });
  return after;
}
