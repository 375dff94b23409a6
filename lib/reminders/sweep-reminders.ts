import { sql as raw } from "kysely";
import type { Tx } from "@/lib/db/client";
import { env } from "@/lib/env";
import { query } from "@/lib/db/query";
import { newId } from "@/lib/ids";
import type { CronPrincipal } from "@/lib/auth/principal";
import { type EventInput, recordEvent } from "@/lib/events/record-event";
import type { LoadedObligation } from "@/lib/obligations/load";
import { toObligationProjection } from "@/lib/obligations/view";
import { reminderEligible, resumesOn } from "@/lib/reminders/eligible";
import { isChasingPaused } from "@/lib/obligations/chasing-paused";
import { planReminders } from "@/lib/reminders/plan-reminders";
import { renderReminder } from "@/lib/reminders/render";
import { reminderDueDate, reminderFacts, reminderLanguage, type BankRow } from "@/lib/reminders/reminder-facts";
import type { ReminderStep } from "@/lib/reminders/view";
import { retrySchedule } from "@/lib/webhooks/schedule";

export type SweepRemindersInput = { rows: LoadedObligation[]; today: string; now: Date };

const SYSTEM: CronPrincipal = { kind: "cron" };

// The reminder part of the scheduler's claim (lib/scheduler/sweep.ts), for obligations it
// holds locked: each step reached becomes a `reminders` row (ON CONFLICT DO NOTHING on
// (organization_id, obligation_id, step): exactly once whatever the number of sweepers);
// only the latest of several reached at once goes out, the others are `skipped`. Webhook
// channel (or no debtor email, or no SMTP_URL): event obligation.reminder_due now, row `sent`. Email: row
// `due`, sent after the claim by lib/reminders/send-due-reminders.ts. Returns, per
// obligation, the next date a step is reached.
export async function sweepReminders(tx: Tx, input: SweepRemindersInput): Promise<Map<string, string | null>> {
  const { rows, today, now } = input;
  const nexts = new Map<string, string | null>();
  const orgIds = [...new Set(rows.map((r) => r.organizationId))];
  if (rows.length === 0) return nexts;
  const policies = new Map((await tx.reminderPolicy.findMany({ where: { organizationId: { in: orgIds }, enabled: true } })).map((p) => [p.organizationId, p]));
  for (const o of rows) if (policies.has(o.organizationId) && isChasingPaused(o, today)) nexts.set(o.id, resumesOn(o));
  const candidates = rows.filter((o) => policies.has(o.organizationId) && reminderEligible(o, today));
  if (candidates.length === 0) return nexts;
  const recordedRows = await tx.reminder.findMany({
    where: { organizationId: { in: orgIds }, obligationId: { in: candidates.map((o) => o.id) } },
    select: { obligationId: true, step: true },
  });
  const recorded = new Map<string, Set<number>>();
  for (const r of recordedRows) recorded.set(r.obligationId, (recorded.get(r.obligationId) ?? new Set()).add(r.step));
  const banks = new Map<string, BankRow>();
  for (const b of await tx.paymentInstruction.findMany({ where: { organizationId: { in: orgIds } } })) banks.set(`${b.organizationId}:${b.currency}`, b);

  type NewRow = { o: LoadedObligation; step: ReminderStep; dueDate: string; status: "sent" | "due" | "skipped"; channel: "webhook" | "email"; id: string };
  const fresh: NewRow[] = [];
  for (const o of candidates) {
    const policy = policies.get(o.organizationId);
    if (!policy) continue;
    const dueDate = reminderDueDate(o, today);
    const plan = planReminders({ steps: policy.steps as ReminderStep[], dueDate, today, recorded: recorded.get(o.id) ?? new Set() });
    nexts.set(o.id, plan.next);
    if (dueDate === null) continue;
    const channel = policy.channel === "email" && o.debtorEmail && env().SMTP_URL ? "email" : "webhook";
    for (const step of plan.skip) fresh.push({ o, step, dueDate, status: "skipped", channel, id: newId() });
    if (plan.send) fresh.push({ o, step: plan.send, dueDate, status: channel === "email" ? "due" : "sent", channel, id: newId() });
  }
  if (fresh.length === 0) return nexts;
  const firstAttempt = new Date(now.getTime() + (retrySchedule()[0] ?? 0) * 1000);
  const inserted = await query(tx)
    .insertInto("reminders")
    .values(
      fresh.map((r) => ({
        organization_id: r.o.organizationId,
        id: r.id,
        obligation_id: r.o.id,
        step: r.step.offset_days,
        tone: r.step.tone,
        channel: r.channel,
        status: r.status,
        scheduled_on: raw<Date>`${`${r.dueDate}`}::date + ${r.step.offset_days}::int`,
        language: reminderLanguage(r.o),
        recipient_email: r.channel === "email" ? r.o.debtorEmail : "",
        next_attempt_at: r.status === "due" ? firstAttempt : null,
        sent_at: r.status === "sent" ? now : null,
      })),
    )
    .onConflict((c) => c.columns(["organization_id", "obligation_id", "step"]).doNothing())
    .returning("id")
    .execute();
  const isFresh = new Set(inserted.map((r) => r.id));
  const byOrg = new Map<string, EventInput[]>();
  for (const r of fresh) {
    if (r.status !== "sent" || !isFresh.has(r.id)) continue;
    const policy = policies.get(r.o.organizationId);
    if (!policy) continue;
    const language = reminderLanguage(r.o);
    const facts = reminderFacts({
      o: r.o,
      today,
      dueDate: r.dueDate,
      tone: r.step.tone,
      language,
      policy,
      bank: banks.get(`${r.o.organizationId}:${r.o.currency}`) ?? null,
      hostedUrl: null, // the webhook consumer adds the link
    });
    const texts = renderReminder(facts);
    const list = byOrg.get(r.o.organizationId) ?? [];
    byOrg.set(r.o.organizationId, list);
    list.push({
      type: "obligation.reminder_due",
      obligationId: r.o.id,
      data: {
        obligation: toObligationProjection(r.o, today),
        reminder: { step: stepNumber(policy.steps as ReminderStep[], r.step), offset_days: r.step.offset_days, ...texts, language },
      },
    });
  }
  for (const [organizationId, events] of byOrg) await recordEvent(tx, { organizationId, principal: SYSTEM, events });
  return nexts;
}

// `step`: the step's position in the policy (1 = the earliest offset).
export const stepNumber = (steps: readonly ReminderStep[], step: ReminderStep): number =>
  [...steps].sort((a, b) => a.offset_days - b.offset_days).findIndex((s) => s.offset_days === step.offset_days) + 1;
