import { formatDay, formatTimestamp, money } from "@/lib/dashboard/format";
import { Section } from "@/components/ui/section";
import { Pill } from "@/components/ui/status-badge";
import { ResolveDisputeForm } from "@/components/obligations/resolve-dispute-form";
import type { SectionProps } from "@/components/obligations/detail/types";

// The payer's dispute and promise to pay (docs/recipient-portal.md), shown only when there is one.
export const DISPUTE_REASON_LABELS: Record<string, string> = {
  not_received: "Goods or service not received",
  wrong_amount: "Wrong amount",
  already_paid: "Already paid",
  quality: "Quality problem",
  other: "Other",
};

export const DISPUTE_TONE = { open: "rose", accepted: "emerald", rejected: "slate" } as const;
export const PROMISE_TONE = { open: "sky", kept: "emerald", broken: "amber" } as const;

export function DisputePromiseSection({ o, locale, canWrite }: SectionProps) {
  const d = o.dispute;
  const p = o.promise;
  if (!d && !p) return null;
  return (
    <Section title="Dispute and promise" id="dispute-promise" description="What the payer raised or promised on the hosted page">
      <div className="space-y-5">
        {d && (
          <div data-testid="dispute">
            <h3 className="flex flex-wrap items-center gap-2 text-sm font-semibold text-slate-900">
              Dispute <Pill tone={DISPUTE_TONE[d.status]}>{d.status === "open" ? "Open" : d.status === "accepted" ? "Accepted" : "Rejected"}</Pill>
            </h3>
            <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
              <dt className="text-slate-600">Reason</dt>
              <dd>{DISPUTE_REASON_LABELS[d.reason] ?? d.reason}</dd>
              {d.amount_minor && (
                <>
                  <dt className="text-slate-600">Amount disputed</dt>
                  <dd>{money(d.amount_minor, o.currency, locale)}</dd>
                </>
              )}
              <dt className="text-slate-600">Opened</dt>
              <dd>
                <time dateTime={d.opened_at}>{formatTimestamp(d.opened_at, locale)}</time>
              </dd>
              {d.resolved_at && (
                <>
                  <dt className="text-slate-600">Resolved</dt>
                  <dd>
                    <time dateTime={d.resolved_at}>{formatTimestamp(d.resolved_at, locale)}</time>
                  </dd>
                </>
              )}
            </dl>
            <p className="mt-2 whitespace-pre-wrap break-words rounded-md border border-slate-200 bg-white p-3 text-sm">{d.message}</p>
            {d.resolution_message && (
              <p className="mt-2 ml-6 whitespace-pre-wrap break-words rounded-md bg-brand-50 p-3 text-sm">
                <span className="font-medium">Your answer: </span>
                {d.resolution_message}
              </p>
            )}
            {d.status === "open" && <p className="mt-2 text-sm text-slate-700">Overdue events for this obligation wait until the dispute is resolved.</p>}
            {d.status === "open" && canWrite && (
              <div className="mt-4">
                <ResolveDisputeForm />
              </div>
            )}
          </div>
        )}
        {p && (
          <div data-testid="promise">
            <h3 className="flex flex-wrap items-center gap-2 text-sm font-semibold text-slate-900">
              Promise to pay <Pill tone={PROMISE_TONE[p.status]}>{p.status === "open" ? "Open" : p.status === "kept" ? "Kept" : "Broken"}</Pill>
            </h3>
            <p className="mt-2 text-sm">
              {money(p.amount_minor, o.currency, locale)} by {formatDay(p.date, locale)}
              <span className="text-slate-600"> (promised {formatTimestamp(p.made_at, locale)})</span>
            </p>
          </div>
        )}
      </div>
    </Section>
  );
}
