import type { Tx } from "@/lib/db/client";
import type { Principal } from "@/lib/auth/principal";
import { recordEvent } from "@/lib/events/record-event";
import { todayUtc } from "@/lib/schemas/common";
import type { TReminderPolicy, TReminderPolicyInput } from "@/lib/schemas/reminders";
import { loadPolicyRow, toPolicyView } from "@/lib/reminders/view";

export type PutReminderPolicyInput = { organizationId: string; principal: Principal; body: TReminderPolicyInput };

// PUT /reminder-policy: replaces the policy (owner or admin, checked by the operation's
// permission); event `reminder_policy.updated`. The organization's open obligations are
// swept again today, so that new steps are planned (and those already reached go out once).
export async function putReminderPolicy(tx: Tx, input: PutReminderPolicyInput): Promise<TReminderPolicy> {
  const { organizationId, body } = input;
  const before = toPolicyView(await loadPolicyRow(tx, { organizationId }));
  const interest = body.late_payment_interest ?? null;
  const data = {
    enabled: body.enabled,
    steps: [...body.steps].sort((a, b) => a.offset_days - b.offset_days),
    channel: body.channel,
    senderName: body.sender_name ?? "",
    replyTo: body.reply_to ?? "",
    interestEnabled: interest?.enabled ?? false,
    referenceRateBasisPoints: interest ? interest.reference_rate_basis_points : null,
    marginBasisPoints: interest ? interest.margin_basis_points : null,
    fixedCompensationMinor: interest?.fixed_compensation_minor !== undefined && interest ? BigInt(interest.fixed_compensation_minor) : null,
    updatedAt: new Date(),
  };
  const row = await tx.reminderPolicy.upsert({ where: { organizationId }, create: { organizationId, ...data }, update: data });
  await tx.obligation.updateMany({
    where: { organizationId, status: { not: "RECONCILED" } },
    data: { nextScheduledOn: new Date(`${todayUtc()}T00:00:00Z`) },
  });
  const after = toPolicyView(row);
  await recordEvent(tx, {
    organizationId,
    type: "reminder_policy.updated",
    principal: input.principal,
    data: { reminder_policy: after },
    detail: { before },
  });
  return after;
}
