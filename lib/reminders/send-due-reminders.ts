import { sql as raw } from "kysely";
import { db, transaction, type Tx } from "@/lib/db/client";
import { query } from "@/lib/db/query";
import type { CronPrincipal } from "@/lib/auth/principal";
import { recordEvent } from "@/lib/events/record-event";
import { logger } from "@/lib/log";
import { loadObligationsByIds } from "@/lib/obligations/load";
import { toObligationProjection } from "@/lib/obligations/view";
import { isRecipientLanguage } from "@/lib/i18n/recipient";
import { hostedUrl } from "@/lib/payment-requests/tokens";
import { reminderEligible, resumesOn } from "@/lib/reminders/eligible";
import { isChasingPaused } from "@/lib/obligations/chasing-paused";
import { addDays } from "@/lib/obligations/terms";
import { sendMail } from "@/lib/reminders/mailer";
import { renderReminder } from "@/lib/reminders/render";
import { reminderDueDate, reminderFacts } from "@/lib/reminders/reminder-facts";
import { stepNumber } from "@/lib/reminders/sweep-reminders";
import type { ReminderStep } from "@/lib/reminders/view";
import type { ReminderTone } from "@/lib/schemas/reminders";
import { todayUtc } from "@/lib/schemas/common";
import { retrySchedule } from "@/lib/webhooks/schedule";

const SYSTEM: CronPrincipal = { kind: "cron" };

export type SendDueRemindersInput = { batchSize?: number; maxBatches?: number; until?: () => boolean };

// Sends the email reminders that are due (after the scheduler's claim; every instance runs
// it): a batch of `reminders` rows (status due, next_attempt_at reached) claimed FOR UPDATE
// SKIP LOCKED, each rendered now with the hosted URL (derived from the payment request, never
// stored) and handed to the SMTP server while the row is held, then `sent` with
// obligation.reminder_sent, or obligation.reminder_failed with the SMTP answer and the next
// attempt on WEBHOOK_RETRY_SCHEDULE (`failed` once it is spent). An obligation no longer
// eligible (reconciled, paid) has its reminder `skipped`. Returns how many were attempted.
// Organization by organization (those with reminders due found first, by a read across
// organizations): each claim names organization_id, one shard on Citus (docs/scaling.md).
export async function sendDueReminders(input: SendDueRemindersInput = {}): Promise<number> {
  const batchSize = input.batchSize ?? 20;
  const maxBatches = input.maxBatches ?? 10;
  let attempted = 0;
  let batches = 0;
  for (;;) {
    let full = false;
    for (const organizationId of await organizationsWithRemindersDue()) {
      if (batches >= maxBatches || input.until?.()) return attempted;
      batches++;
      const n = await transaction((tx) => sendBatch(tx, organizationId, batchSize));
      attempted += n;
      if (n >= batchSize) full = true;
    }
    if (!full) return attempted;
  }
}

async function organizationsWithRemindersDue(): Promise<string[]> {
  const rows = await query(db())
    .selectFrom("reminders")
    .select("organization_id")
    .where("status", "=", "due")
    .where("channel", "=", "email")
    .where("next_attempt_at", "<=", raw<Date>`now()`)
    .groupBy("organization_id")
    .orderBy(raw`min(next_attempt_at)`)
    .limit(100)
    .execute();
  return rows.map((r) => r.organization_id);
}

async function sendBatch(tx: Tx, organizationId: string, batchSize: number): Promise<number> {
  const now = new Date();
  const today = todayUtc();
  const due = await query(tx)
    .selectFrom("reminders")
    .selectAll()
    .where("organization_id", "=", organizationId)
    .where("status", "=", "due")
    .where("channel", "=", "email")
    .where("next_attempt_at", "<=", now)
    .orderBy("next_attempt_at")
    .limit(batchSize)
    .forUpdate()
    .skipLocked()
    .execute();
  for (const r of due) {
    const [o] = await loadObligationsByIds(tx, { organizationId: r.organization_id, ids: [r.obligation_id] });
    const policy = await tx.reminderPolicy.findUnique({ where: { organizationId: r.organization_id } });
    const dueDate = o ? reminderDueDate(o, today) : null;
    const where = { organizationId_id: { organizationId: r.organization_id, id: r.id } };
    if (o && policy && dueDate !== null && isChasingPaused(o, today)) {
      // Paused since the claim (a dispute opened, a promise made): sent when chasing resumes.
      await tx.reminder.update({ where, data: { nextAttemptAt: new Date(`${resumesOn(o) ?? addDays(today, 1)}T00:00:00Z`) } });
      continue;
    }
    if (!o || !policy || !reminderEligible(o, today) || dueDate === null) {
      await tx.reminder.update({ where, data: { status: "skipped", nextAttemptAt: null } });
      continue;
    }
    const step: ReminderStep = { offset_days: r.step, tone: r.tone as ReminderTone };
    const language = isRecipientLanguage(r.language) ? r.language : "en";
    const bank = await tx.paymentInstruction.findUnique({ where: { organizationId_currency: { organizationId: o.organizationId, currency: o.currency } } });
    const pr = o.paymentRequest;
    const link = pr && !pr.revokedAt && pr.expiresAt.getTime() > now.getTime() ? hostedUrl(pr) : null;
    const texts = renderReminder(reminderFacts({ o, today, dueDate, tone: step.tone, language, policy, bank, hostedUrl: link }));
    const about = {
      step: stepNumber(policy.steps as ReminderStep[], step),
      offset_days: r.step,
      subject: texts.subject,
      language,
      to: r.recipient_email,
      attempt: r.attempts + 1,
    };
    const projection = toObligationProjection(o, today);
    try {
      const sent = await sendMail({ to: r.recipient_email, senderName: policy.senderName, replyTo: policy.replyTo, language, ...texts });
      await tx.reminder.update({ where, data: { status: "sent", sentAt: new Date(), attempts: { increment: 1 }, nextAttemptAt: null, lastError: "" } });
      await recordEvent(tx, {
        organizationId: o.organizationId,
        type: "obligation.reminder_sent",
        principal: SYSTEM,
        obligationId: o.id,
        data: { obligation: projection, reminder: { ...about, message_id: sent.messageId, smtp_response: sent.response } },
      });
    } catch (err) {
      const e = err as { response?: string; responseCode?: number; message?: string };
      const answer = (e.response ?? e.message ?? "SMTP error").slice(0, 500);
      const schedule = retrySchedule();
      const attempts = r.attempts + 1;
      const final = attempts >= schedule.length;
      await tx.reminder.update({
        where,
        data: {
          status: final ? "failed" : "due",
          attempts,
          lastError: answer,
          nextAttemptAt: final ? null : new Date(now.getTime() + (schedule[attempts] ?? 0) * 1000),
        },
      });
      await recordEvent(tx, {
        organizationId: o.organizationId,
        type: "obligation.reminder_failed",
        principal: SYSTEM,
        obligationId: o.id,
        data: { obligation: projection, reminder: { ...about, smtp_response: answer, final } },
      });
      // Only the reminder's id and the SMTP answer: never the body or the link.
      logger().warn({ reminder_id: r.id, smtp_response: answer, final }, "reminder email failed");
    }
  }
  return due.length;
}
