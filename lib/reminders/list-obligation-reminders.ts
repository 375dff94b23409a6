import type { Tx } from "@/lib/db/client";

export type ObligationReminder = {
  step: number; // offset_days
  tone: string;
  channel: string;
  status: string; // sent | due | failed | skipped
  scheduled_on: string;
  language: string;
  attempts: number;
  last_error: string;
  sent_at: string | null;
};

// The reminders of one obligation (the dashboard's obligation page), earliest step first.
export async function listObligationReminders(tx: Tx, input: { organizationId: string; obligationId: string }): Promise<ObligationReminder[]> {
  const rows = await tx.reminder.findMany({ where: { organizationId: input.organizationId, obligationId: input.obligationId }, orderBy: { step: "asc" } });
  return rows.map((r) => ({
    step: r.step,
    tone: r.tone,
    channel: r.channel,
    status: r.status,
    scheduled_on: r.scheduledOn.toISOString().slice(0, 10),
    language: r.language,
    attempts: r.attempts,
    last_error: r.lastError,
    sent_at: r.sentAt ? r.sentAt.toISOString() : null,
  }));
}
