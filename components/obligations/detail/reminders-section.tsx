import { Section } from "@/components/ui/section";
import { formatDate } from "@/lib/format/dates";
import type { ObligationReminder } from "@/lib/reminders/list-obligation-reminders";

const STATUS: Record<string, string> = { sent: "Sent", due: "Waiting to be sent", failed: "Failed", skipped: "Skipped (a later step went out)" };
const CHANNEL: Record<string, string> = { email: "by email", webhook: "through your webhook" };

function when(days: number): string {
  if (days === 0) return "On the due date";
  const n = Math.abs(days);
  return `${n} day${n === 1 ? "" : "s"} ${days < 0 ? "before" : "after"} the due date`;
}

// The reminders sent, due, failed or skipped for this obligation (docs/reminders.md).
export function RemindersSection({ reminders, locale }: { reminders: ObligationReminder[]; locale: string }) {
  if (reminders.length === 0) return null;
  return (
    <Section title="Reminders" id="reminders">
      <ul className="divide-y divide-slate-100 text-sm">
        {reminders.map((r) => (
          <li key={r.step} className="py-2">
            <p className="font-medium text-slate-900">
              {when(r.step)} · {r.tone} · {STATUS[r.status] ?? r.status}
            </p>
            <p className="text-slate-600">
              {formatDate(r.scheduled_on, locale)} {CHANNEL[r.channel] ?? r.channel}
              {r.attempts > 1 ? ` · ${r.attempts} attempts` : ""}
            </p>
            {r.last_error && r.status !== "sent" && <p className="text-red-700">The mail server answered: {r.last_error}</p>}
          </li>
        ))}
      </ul>
    </Section>
  );
}
