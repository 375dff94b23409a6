import { DOCUMENT_KIND_LABELS, EVENT_LABELS, eventLabel, formatDay, formatTimestamp, money } from "@/lib/dashboard/format";
import { EarlierEntries } from "@/components/obligations/detail/earlier-entries";
import { Section } from "@/components/ui/section";
import type { ObligationDetail } from "@/components/obligations/detail/types";

// A short, human line for an audit entry's recorded facts.
export function auditFacts(type: string, d: Record<string, unknown>, locale: string, currency: string): string {
  const s = (k: string) => (typeof d[k] === "string" ? (d[k] as string) : "");
  switch (type) {
    case "obligation.registered":
      return s("reference");
    case "obligation.message_posted": {
      const body = s("body");
      return body.length > 140 ? `“${body.slice(0, 140)}…”` : body ? `“${body}”` : "";
    }
    case "obligation.document_added":
      return [s("filename"), DOCUMENT_KIND_LABELS[s("kind")]].filter(Boolean).join(" · ");
    case "obligation.expected_payment_date_set":
    case "obligation.dates_shared":
      return s("expected_payment_date") ? `Expected ${formatDay(s("expected_payment_date"), locale)}` : "";
    case "obligation.payment_reported": {
      const parts = [s("reported_payment_date") && `Paid ${formatDay(s("reported_payment_date"), locale)}`];
      if (/^[1-9][0-9]*$/.test(s("amount_minor"))) parts.push(money(s("amount_minor"), currency, locale));
      if (s("reference")) parts.push(`ref. ${s("reference")}`);
      return parts.filter(Boolean).join(" · ");
    }
    case "obligation.condition_satisfied":
    case "obligation.condition_waived":
      return [s("key"), s("evidence_reference") && `evidence ${s("evidence_reference")}`].filter(Boolean).join(" · ");
    case "obligation.link_reissued":
      return typeof d.issue_number === "number" ? `Issue ${d.issue_number}` : "";
    case "obligation.term_payable":
    case "obligation.due": {
      const on = s(type === "obligation.due" ? "payable_on" : "triggered_on");
      const parts = [typeof d.sequence === "number" && `Term ${d.sequence}`];
      if (/^[1-9][0-9]*$/.test(s("amount_minor"))) parts.push(money(s("amount_minor"), currency, locale));
      if (on) parts.push(`${type === "obligation.due" ? "due" : "payable"} since ${formatDay(on, locale)}`);
      return parts.filter(Boolean).join(" · ");
    }
    case "obligation.overdue":
      return typeof d.days_overdue === "number" ? `${d.days_overdue} ${d.days_overdue === 1 ? "day" : "days"} past the deadline` : "";
    case "payment_request.expiring":
      return s("expires_at") ? `Expires ${formatTimestamp(s("expires_at"), locale)}` : "";
    default:
      return "";
  }
}

// Every event of the obligation, oldest first: who, what, when.
export function AuditSection({ o, locale }: { o: ObligationDetail; locale: string }) {
  return (
    <Section title="Audit trail" id="audit" description="Every event, oldest first: who, what, when">
      {o.audit_trail_total > o.audit_trail.length && (
        <EarlierEntries obligationId={o.id} kind="audit-trail" shown={o.audit_trail.length} total={o.audit_trail_total} labels={EVENT_LABELS} />
      )}
      <ol className="space-y-3 border-l border-slate-200 pl-4">
        {o.audit_trail.map((e) => {
          const facts = auditFacts(e.event_type, e.detail, locale, o.currency);
          return (
            <li key={e.id} className="relative text-sm">
              <span className="absolute -left-[1.4rem] top-1 size-3 rounded-full border-2 border-white bg-slate-400" aria-hidden="true" />
              <p>
                <span className="font-medium">{eventLabel(e.event_type)}</span>
                <span className="text-slate-700"> by {e.actor.label || e.actor.type}</span>
              </p>
              {facts && <p className="break-words text-slate-700">{facts}</p>}
              <p className="text-xs text-slate-600">
                <time dateTime={e.created_at}>{formatTimestamp(e.created_at, locale)}</time>
              </p>
            </li>
          );
        })}
      </ol>
    </Section>
  );
}
