import { handle } from "@/lib/http/handle";
import { getReconciliationSettingsOp, putReconciliationSettingsOp } from "@/lib/operations/reconciliation";
import { getReconciliationSettings } from "@/lib/reconciliation/get-reconciliation-settings";
import { putReconciliationSettings } from "@/lib/reconciliation/put-reconciliation-settings";
import { notServed } from "@/lib/http/not-served";

// GET /reconciliation-settings – how bank transactions are allocated without a person
export const GET = handle(getReconciliationSettingsOp, async ({ tx, principal }) => ({
  status: 200,
  body: await getReconciliationSettings(tx, { organizationId: principal.organizationId }),
}));

// PUT /reconciliation-settings – replace them (owner or admin session)
export const PUT = handle(putReconciliationSettingsOp, async ({ tx, principal, body }) => ({
  status: 200,
  body: await putReconciliationSettings(tx, { organizationId: principal.organizationId, principal, body }),
}));

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { HEAD, POST, PATCH, DELETE } = notServed("GET", "PUT");
