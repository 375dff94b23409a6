import type { Tx } from "@/lib/db/client";
import type { TReminderPolicy } from "@/lib/schemas/reminders";
import { loadPolicyRow, toPolicyView } from "@/lib/reminders/view";

export type GetReminderPolicyInput = { organizationId: string };

// GET /reminder-policy: the organization's policy, the default (none) when never set.
export async function getReminderPolicy(tx: Tx, input: GetReminderPolicyInput): Promise<TReminderPolicy> {
  return toPolicyView(await loadPolicyRow(tx, input));
}
