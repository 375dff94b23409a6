import type { Tx } from "@/lib/db/client";
import type { ReminderTone, TReminderPolicy } from "@/lib/schemas/reminders";

export type PolicyRow = {
  enabled: boolean;
  steps: unknown;
  channel: string;
  senderName: string;
  replyTo: string;
  interestEnabled: boolean;
  referenceRateBasisPoints: number | null;
  marginBasisPoints: number | null;
  fixedCompensationMinor: bigint | null;
  updatedAt: Date;
};

export type ReminderStep = { offset_days: number; tone: ReminderTone };

export async function loadPolicyRow(tx: Tx, { organizationId }: { organizationId: string }): Promise<PolicyRow | null> {
  return tx.reminderPolicy.findUnique({ where: { organizationId } });
}

// The wire shape; the default (never set) is disabled, no steps, webhook.
export function toPolicyView(r: PolicyRow | null): TReminderPolicy {
  if (!r) return { enabled: false, steps: [], channel: "webhook", sender_name: "", reply_to: "", late_payment_interest: null, updated_at: "" };
  const interest =
    r.referenceRateBasisPoints === null || r.marginBasisPoints === null
      ? null
      : {
          enabled: r.interestEnabled,
          reference_rate_basis_points: r.referenceRateBasisPoints,
          margin_basis_points: r.marginBasisPoints,
          ...(r.fixedCompensationMinor !== null ? { fixed_compensation_minor: r.fixedCompensationMinor.toString() } : {}),
        };
  return {
    enabled: r.enabled,
    steps: r.steps as ReminderStep[],
    channel: r.channel as TReminderPolicy["channel"],
    sender_name: r.senderName,
    reply_to: r.replyTo,
    late_payment_interest: interest,
    updated_at: r.updatedAt.toISOString(),
  };
}
