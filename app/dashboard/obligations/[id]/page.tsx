import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requireUser } from "@/lib/auth/current-user";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { getObligationDetail } from "@/lib/obligations/get-obligation-detail";
import { todayUtc } from "@/lib/schemas/common";
import { requestLocale } from "@/lib/dashboard/locale";
import {
  daysBetween,
  DOCUMENT_KIND_LABELS,
  DUE_RULE_LABELS,
  eventLabel,
  formatDay,
  formatTimestamp,
  money,
  TRIGGER_LABELS,
  TYPE_LABELS,
} from "@/lib/dashboard/format";
import { basisPointsToPercent } from "@/lib/money/format";
import { Empty, ReadOnlyNotice, Section } from "@/components/ui/section";
import { Pill, StatusBadge } from "@/components/ui/status-badge";
import { ObligationProvider } from "@/components/obligations/obligation-context";
import { LinkPanel } from "@/components/obligations/link-panel";
import { ExpectedDateForm } from "@/components/obligations/expected-date-form";
import { ConditionActions } from "@/components/obligations/condition-actions";
import { DocumentUpload } from "@/components/obligations/document-upload";
import { MessageForm } from "@/components/obligations/message-form";
import { DeliveryPreview } from "@/components/obligations/delivery-preview";
import { LinkContextForm } from "@/components/obligations/link-context-form";
import { listObligationAllocations } from "@/lib/payments/list-obligation-allocations";
import { listBusinessContexts } from "@/lib/contexts/list-business-contexts";

export const metadata: Metadata = { title: "Obligation" };

type Detail = Awaited<ReturnType<typeof getObligationDetail>>;

async function load(organizationId: string, id: string): Promise<Detail> {
  try {
    return await getObligationDetail(db(), organizationId, id);
  } catch (e) {
    if (e instanceof AppError && e.code === "not_found") notFound();
    throw e;
  }
}

const bytes = (n: number) => (n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`);

// A short, human line for an audit entry's recorded facts.
function auditFacts(type: string, d: Record<string, unknown>, locale: string, currency: string): string {
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
      return s("expected_payment_date") ? `Expected ${formatDay(s("expected_payment_date"), locale)}` : "";
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
    default:
      return "";
  }
}

export default async function ObligationPage({ params }: { params: Promise<{ id: string }> }) {
  const user = await requireUser({ permission: "obligations:read" });
  const { id } = await params;
  const locale = await requestLocale();
  const o = await load(user.organizationId, id);
  const canWrite = user.can("obligations:write");
  const today = todayUtc();
  const cp = o.organization_role === "creditor" ? o.debtor : o.creditor;
  const outstanding = (BigInt(o.amount_minor) - BigInt(o.allocated_minor)).toString();
  const overdueDays = o.status !== "RECONCILED" && o.deadline < today ? daysBetween(o.deadline, today) : 0;
  const pr = o.payment_request;
  const expired = Date.parse(pr.expires_at) <= Date.now();
  const m = (minor: string) => money(minor, o.currency, locale);
  const conditionLabel = new Map(o.conditions.map((c) => [c.id, c.label]));
  const allocations = user.can("payments:read") ? await listObligationAllocations(db(), user.organizationId, o.id) : [];
  const linked = new Set(o.contexts.map((c) => c.id));
  const contextOptions =
    canWrite && user.can("contexts:read")
      ? (await listBusinessContexts(db(), user.organizationId, { limit: 100, offset: 0, context_type: "", context_kind: "", search: "" })).items
          .filter((c) => !linked.has(c.id))
          .map((c) => ({ id: c.id, label: `${c.name} (${c.type_label}${c.reference ? ` ${c.reference}` : ""})` }))
      : [];

  return (
    <ObligationProvider obligationId={o.id} version={o.version} canWrite={canWrite}>
      <div className="space-y-6">
        <div>
          <p className="text-sm">
            <Link href="/dashboard/obligations" className="text-brand-700 underline-offset-2 hover:underline">
              Obligations
            </Link>
          </p>
          <div className="mt-1 flex flex-wrap items-start justify-between gap-3">
            <div className="min-w-0">
              <h1 className="break-words text-2xl font-semibold tracking-tight">{cp.name || o.reference}</h1>
              <p className="mt-1 text-sm text-slate-600">
                {o.reference} · {TYPE_LABELS[o.obligation_type]} {o.business_context.invoice_number} · {o.organization_role === "creditor" ? "owes you" : "you owe"}
                {o.label ? ` · ${o.label}` : ""}
              </p>
            </div>
            <div className="flex flex-wrap items-center gap-2">
              <StatusBadge status={o.status} />
              {overdueDays > 0 && <Pill tone="rose">{overdueDays === 1 ? "1 day overdue" : `${overdueDays} days overdue`}</Pill>}
              {o.acknowledged && <Pill tone="emerald">Acknowledged</Pill>}
            </div>
          </div>
        </div>

        {!canWrite && <ReadOnlyNotice />}

        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
          {[
            ["Amount", m(o.amount_minor), ""],
            ["Allocated", m(o.allocated_minor), "from recorded payments"],
            ["Outstanding", m(outstanding), ""],
            ["Payable now", m(o.payable_minor), "activated by the terms"],
            ["Due now", m(o.due_minor), "payable and past its due date"],
          ].map(([label, value, help]) => (
            <div key={label} className="rounded-xl border border-slate-200 bg-white p-3">
              <dt className="text-xs font-medium uppercase tracking-wide text-slate-600">{label}</dt>
              <dd className="mt-1 break-words text-lg font-semibold tabular-nums">{value}</dd>
              {help && <dd className="text-xs text-slate-600">{help}</dd>}
            </div>
          ))}
        </dl>

        <div className="grid items-start gap-6 lg:grid-cols-3 lg:grid-rows-[auto_1fr]">
          {/* small screens: the link first, then the record, then the details */}
          <div className="min-w-0 space-y-6 lg:col-start-3 lg:row-start-1">
            <Section title="Hosted link" id="link" description="The secure page where the counterparty sees this and responds">
              <LinkPanel
                status={o.status}
                revoked={pr.revoked}
                expired={expired}
                expiresLabel={formatTimestamp(pr.expires_at, locale)}
                counterpartyEmail={cp.email ?? ""}
              />
            </Section>

            {o.obligation_type === "invoice" && (
              <Section title="Delivery email" id="delivery" description="Draft text for your own email; nothing is sent">
                {pr.revoked || expired ? <p className="text-sm text-slate-600">Reissue the link to prepare a draft.</p> : <DeliveryPreview />}
              </Section>
            )}

          </div>
          <div className="min-w-0 space-y-6 lg:col-span-2 lg:col-start-1 lg:row-span-2 lg:row-start-1">
            <Section
              title="Payment terms"
              id="terms"
              description={o.payment_terms.length ? `${o.payment_terms.length} ${o.payment_terms.length === 1 ? "term" : "terms"}` : `No terms: the whole amount is due on ${formatDay(o.deadline, locale)}.`}
            >
              {o.payment_terms.length > 0 && (
                <ul className="divide-y divide-slate-100">
                  {o.payment_terms.map((t) => {
                    const payable = !!t.triggered_on && t.triggered_on <= today;
                    const due = payable && !!t.payable_on && t.payable_on <= today;
                    return (
                      <li key={t.id} className="flex flex-wrap items-start justify-between gap-x-4 gap-y-1 py-2.5">
                        <div className="min-w-0">
                          <p className="font-medium">
                            {t.sequence}. {t.label || (t.amount_type === "percentage" ? `${basisPointsToPercent(t.percentage_basis_points ?? 0)} %` : "Fixed amount")}
                          </p>
                          <p className="text-sm text-slate-600">
                            {t.trigger_type === "condition_satisfied"
                              ? `When “${conditionLabel.get(t.condition_id ?? "") ?? t.condition_key}” is met`
                              : t.trigger_type === "specific_date"
                                ? `From ${formatDay(t.trigger_date ?? "", locale)}`
                                : TRIGGER_LABELS[t.trigger_type]}
                            {" · due "}
                            {t.due_rule === "days_after_trigger"
                              ? `${t.due_days} days later`
                              : t.due_rule === "specific_date"
                                ? formatDay(t.due_date ?? "", locale)
                                : DUE_RULE_LABELS[t.due_rule].toLowerCase()}
                            {t.payable_on ? ` (${formatDay(t.payable_on, locale)})` : ""}
                          </p>
                        </div>
                        <div className="text-right">
                          <p className="font-medium tabular-nums">{m(t.amount_minor ?? "0")}</p>
                          <p>{due ? <Pill tone="rose">Due now</Pill> : payable ? <Pill tone="amber">Payable</Pill> : <Pill>Not yet payable</Pill>}</p>
                        </div>
                      </li>
                    );
                  })}
                </ul>
              )}
            </Section>

            {user.can("payments:read") && (
              <Section title="Payments allocated" id="allocations" description="Recorded payments accepted as evidence for this obligation">
                {allocations.length === 0 ? (
                  <Empty>
                    No payment allocated yet.
                    {user.can("payments:write") && (
                      <>
                        {" "}
                        <Link href="/dashboard/payments" className="text-brand-700 underline">
                          Record or allocate a payment
                        </Link>
                      </>
                    )}
                  </Empty>
                ) : (
                  <ul className="divide-y divide-slate-100">
                    {allocations.map((a) => (
                      <li key={a.id} className="flex flex-wrap items-center justify-between gap-2 py-2.5">
                        <div className="min-w-0">
                          <Link href={`/dashboard/payments/${a.payment_id}`} className="font-medium text-brand-700 underline-offset-2 hover:underline">
                            {a.payment.payer_name || a.payment.reference || "Payment"}
                          </Link>
                          <p className="text-sm text-slate-600">
                            received {formatDay(a.payment.received_on, locale)}
                            {a.payment.reference ? ` · ${a.payment.reference}` : ""} · payment of {money(a.payment.amount_minor, a.payment.currency, locale)}
                          </p>
                        </div>
                        <span className="font-medium tabular-nums">{m(a.amount_minor)}</span>
                      </li>
                    ))}
                  </ul>
                )}
              </Section>
            )}

            <Section title="Conditions" id="conditions" description={o.conditions.length ? undefined : "No conditions."}>
              {o.conditions.length > 0 && (
                <ul className="divide-y divide-slate-100">
                  {o.conditions.map((c) => (
                    <li key={c.id} className="space-y-2 py-2.5">
                      <div className="flex flex-wrap items-start justify-between gap-2">
                        <div className="min-w-0">
                          <p className="font-medium">{c.label}</p>
                          <p className="text-sm text-slate-600">
                            {c.key}
                            {c.satisfied_on ? ` · ${c.status === "waived" ? "waived" : "satisfied"} ${formatDay(c.satisfied_on, locale)}` : ""}
                            {c.evidence_reference ? ` · evidence ${c.evidence_reference}` : ""}
                            {c.source ? ` · ${c.source}` : ""}
                          </p>
                        </div>
                        <Pill tone={c.status === "waiting" ? "amber" : "emerald"}>{c.status === "waiting" ? "Waiting" : c.status === "waived" ? "Waived" : "Satisfied"}</Pill>
                      </div>
                      {canWrite && <ConditionActions conditionId={c.id} label={c.label} today={today} waiting={c.status === "waiting"} />}
                    </li>
                  ))}
                </ul>
              )}
            </Section>

            <Section title="Messages" id="messages" description="Visible to the recipient on the hosted page">
              {o.messages.length === 0 ? (
                <Empty>No messages yet.</Empty>
              ) : (
                <ol className="space-y-3">
                  {o.messages.map((msg) => (
                    <li
                      key={msg.id}
                      className={`rounded-lg p-3 text-sm ${msg.author_type === "issuer" ? "ml-6 bg-brand-50" : "mr-6 border border-slate-200 bg-white"}`}
                    >
                      <p className="text-xs text-slate-700">
                        <span className="font-medium">{msg.author_type === "issuer" ? `${msg.author_name || "You"} (you)` : msg.author_name || "Recipient"}</span> ·{" "}
                        <time dateTime={msg.created_at}>{formatTimestamp(msg.created_at, locale)}</time>
                      </p>
                      <p className="mt-1 whitespace-pre-wrap break-words">{msg.body}</p>
                    </li>
                  ))}
                </ol>
              )}
              {canWrite && (
                <div className="mt-4">
                  <MessageForm />
                </div>
              )}
            </Section>

            <Section title="Documents" id="documents">
              {o.documents.length === 0 ? (
                <Empty>No documents yet.</Empty>
              ) : (
                <ul className="divide-y divide-slate-100">
                  {o.documents.map((d) => (
                    <li key={d.id} className="flex flex-wrap items-center justify-between gap-2 py-2.5">
                      <div className="min-w-0">
                        <a
                          href={`/api/v1/obligations/${o.id}/documents/${d.id}`}
                          download={d.filename}
                          className="break-all font-medium text-brand-700 underline-offset-2 hover:underline"
                        >
                          {d.filename}
                        </a>
                        <p className="text-sm text-slate-600" title={`SHA-256 ${d.sha256}`}>
                          {DOCUMENT_KIND_LABELS[d.kind]} · {bytes(d.size_bytes)} · {d.uploaded_by === "issuer" ? "uploaded by you" : "from the recipient"} ·{" "}
                          <time dateTime={d.created_at}>{formatTimestamp(d.created_at, locale)}</time>
                        </p>
                      </div>
                    </li>
                  ))}
                </ul>
              )}
              {canWrite && (
                <div className="mt-4 border-t border-slate-100 pt-4">
                  <DocumentUpload />
                </div>
              )}
            </Section>

            <Section title="Audit trail" id="audit" description="Every event, oldest first: who, what, when">
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
          </div>

          <div className="min-w-0 space-y-6 lg:col-start-3 lg:row-start-2">
            <Section title="Details" id="details">
              <dl className="space-y-2 text-sm">
                {[
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
                ]
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

            <Section title="Business contexts" id="contexts">
              {o.contexts.length === 0 ? (
                <Empty>Not linked to any context.</Empty>
              ) : (
                <ul className="space-y-2 text-sm">
                  {o.contexts.map((c) => (
                    <li key={c.id}>
                      <Link href={`/dashboard/contexts/${c.id}`} className="font-medium text-brand-700 underline-offset-2 hover:underline">
                        {c.name}
                      </Link>
                      <span className="text-slate-600">
                        {" "}
                        · {c.type_label}
                        {c.reference ? ` ${c.reference}` : ""} · {c.relationship_type}
                        {c.attributed_minor ? ` · ${m(c.attributed_minor)}` : ""}
                      </span>
                    </li>
                  ))}
                </ul>
              )}
              {contextOptions.length > 0 && (
                <div className="mt-4 border-t border-slate-100 pt-4">
                  <LinkContextForm currency={o.currency} options={contextOptions} />
                </div>
              )}
            </Section>
          </div>
        </div>
      </div>
    </ObligationProvider>
  );
}
