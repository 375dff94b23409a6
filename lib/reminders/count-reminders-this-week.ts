import { sql as raw } from "kysely";
import type { Tx } from "@/lib/db/client";
import { query } from "@/lib/db/query";
import { addDays } from "@/lib/obligations/terms";
import type { ReminderStep } from "@/lib/reminders/view";

// The dashboard overview's "reminders this week": the emails waiting to be sent, plus the
// steps of open obligations owed to the organization that fall in the 7 days from today,
// counted from the deadline (an estimate for obligations with payment terms, whose due date
// may be another term's). null while the policy is off.
export async function countRemindersThisWeek(tx: Tx, input: { organizationId: string; today: string }): Promise<number | null> {
  const { organizationId, today } = input;
  const policy = await tx.reminderPolicy.findUnique({ where: { organizationId } });
  if (!policy?.enabled) return null;
  const steps = policy.steps as ReminderStep[];
  const waiting = await tx.reminder.count({ where: { organizationId, status: "due" } });
  if (steps.length === 0) return waiting;
  const offsets = steps.map((s) => s.offset_days);
  const from = addDays(today, -Math.max(...offsets));
  const to = addDays(today, 6 - Math.min(...offsets));
  const rows = await query(tx)
    .selectFrom("obligations")
    .select(raw<string>`deadline::text`.as("deadline"))
    .select("id")
    .where("organization_id", "=", organizationId)
    .where("organization_role", "=", "creditor")
    .where("status", "<>", "RECONCILED")
    .where(raw<boolean>`amount_minor > allocated_minor`)
    .where(raw<boolean>`deadline BETWEEN ${from}::date AND ${to}::date`)
    .execute();
  if (rows.length === 0) return waiting;
  const recorded = await tx.reminder.findMany({
    where: { organizationId, obligationId: { in: rows.map((r) => r.id) } },
    select: { obligationId: true, step: true },
  });
  const done = new Set(recorded.map((r) => `${r.obligationId}:${r.step}`));
  const last = addDays(today, 6);
  let planned = 0;
  for (const r of rows)
    for (const d of offsets) {
      const on = addDays(r.deadline, d);
      if (on >= today && on <= last && !done.has(`${r.id}:${d}`)) planned++;
    }
  return waiting + planned;
}
