import { addDays } from "@/lib/obligations/terms";
import type { ReminderStep } from "@/lib/reminders/view";

// Which reminder steps an obligation reaches today, and when to look again. Pure.
// A step is reached on dueDate + offset_days. Of the steps reached and not yet recorded,
// only the latest goes out (and only when it is later than every step already recorded);
// the others are recorded as skipped (docs/reminders.md).
export type ReminderPlanInput = { steps: readonly ReminderStep[]; dueDate: string | null; today: string; recorded: ReadonlySet<number> };
export type ReminderPlan = { send: ReminderStep | null; skip: ReminderStep[]; next: string | null };

export function planReminders(input: ReminderPlanInput): ReminderPlan {
  const { dueDate, today, recorded } = input;
  if (dueDate === null) return { send: null, skip: [], next: null };
  const steps = [...input.steps].sort((a, b) => a.offset_days - b.offset_days);
  const reached = steps.filter((s) => !recorded.has(s.offset_days) && addDays(dueDate, s.offset_days) <= today);
  let next: string | null = null;
  for (const s of steps) {
    const on = addDays(dueDate, s.offset_days);
    if (!recorded.has(s.offset_days) && on > today && (next === null || on < next)) next = on;
  }
  if (reached.length === 0) return { send: null, skip: [], next };
  const latest = reached[reached.length - 1];
  const latestRecorded = Math.max(-Infinity, ...recorded);
  if (latest.offset_days < latestRecorded) return { send: null, skip: reached, next };
  return { send: latest, skip: reached.slice(0, -1), next };
}
