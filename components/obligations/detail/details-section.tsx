import { formatDay, formatTimestamp } from "@/lib/dashboard/format";
import { Section } from "@/components/ui/section";
import { ExpectedDateForm } from "@/components/obligations/expected-date-form";
import type { SectionProps } from "@/components/obligations/detail/types";

// The parties and the record's facts; the expected payment date can be set here.
export function DetailsSection({ o, locale, canWrite, overdueDays }: SectionProps & { overdueDays: number }) {
  const rows = [
    ["Deadline", `${formatDay(o.deadline, locale)}${overdueDays ? ` (${overdueDays} ${overdueDays === 1 ? "day" : "days"} overdue)` : ""}`],
    ["Creditor", [o.creditor.name, o.creditor.email].filter(Boolean).join(" · ")],
    ["Debtor", [o.debtor.name, o.debtor.email].filter(Boolean).join(" · ")],
    ["Invoice or document number", o.business_context.invoice_number],
    ["Description", o.business_context.description ?? ""],
    ["Expected payment date", formatDay(o.expected_payment_date, locale) || "Not set"],
    ["Reported payment date", formatDay(o.reported_payment_date, locale) || "Not reported"],
    ["Acknowledged by the recipient", o.acknowledged ? "Yes" : "No"],
    ["External reference", `${o.external_reference.namespace} / ${o.external_reference.id}`],
    ["Created", formatTimestamp(o.created_at, locale)],
    ["Updated", `${formatTimestamp(o.updated_at, locale)} · version ${o.version}`],
  ];
  return (
    <Section title="Details" id="details">
      <dl className="space-y-2 text-sm">
        {rows
          .filter(([, v]) => v)
          .map(([k, v]) => (
            <div key={k}>
              <dt className="text-slate-600">{k}</dt>
              <dd className="whitespace-pre-wrap break-words">{v}</dd>
            </div>
          ))}
      </dl>
      {canWrite && (
        <div className="mt-4 border-t border-slate-100 pt-4">
          <ExpectedDateForm current={o.expected_payment_date} />
        </div>
      )}
    </Section>
  );
}
