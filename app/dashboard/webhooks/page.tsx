import type { Metadata } from "next";
import { requireUser } from "@/lib/auth/current-user";
import { db } from "@/lib/db/client";
import { listWebhookEndpoints } from "@/lib/webhooks/list-endpoints";
import { listWebhookDeliveries } from "@/lib/webhooks/list-deliveries";
import { requestLocale } from "@/lib/dashboard/locale";
import { eventLabel, formatTimestamp } from "@/lib/dashboard/format";
import { Empty, Section } from "@/components/ui/section";
import { Pill } from "@/components/ui/status-badge";
import { NewEndpointForm } from "@/components/webhooks/new-endpoint-form";
import { RetryButton } from "@/components/webhooks/retry-button";
import { EndpointActions } from "@/components/webhooks/endpoint-actions";
import { PageHeader } from "@/components/ui/page-header";

export const metadata: Metadata = { title: "Webhooks" };

const STATUS_TONE = { pending: "sky", succeeded: "emerald", failed: "rose" } as const;

export default async function WebhooksPage() {
  const user = await requireUser({ permission: "webhooks:read" });
  const locale = await requestLocale();
  const endpoints = await listWebhookEndpoints(db(), { organizationId: user.organizationId });
  const deliveries = await listWebhookDeliveries(db(), { organizationId: user.organizationId });
  const canWrite = user.can("webhooks:write");
  const urlOf = new Map(endpoints.map((e) => [e.id, e.url]));
  const failed = deliveries.filter((d) => d.status === "failed").length;

  return (
    <div className="space-y-6">
      <PageHeader
        title="Webhooks"
        description="Signed HTTP calls to your systems for future events, retried on failure. An endpoint that fails every attempt for 5 days is disabled."
      />

      <Section title="Endpoints" id="endpoints">
        {endpoints.length === 0 ? (
          <Empty>No endpoints yet.</Empty>
        ) : (
          <ul className="divide-y divide-slate-100">
            {endpoints.map((e) => (
              <li key={e.id} className="py-3">
                <div className="min-w-0">
                  <div className="flex flex-wrap items-start justify-between gap-2">
                    <p className="min-w-0 break-all font-mono text-sm">{e.url}</p>
                    {!e.enabled ? (
                      <Pill tone="rose">Disabled</Pill>
                    ) : e.consecutive_failures > 0 ? (
                      <Pill tone="amber">{e.consecutive_failures === 1 ? "1 failure in a row" : `${e.consecutive_failures} failures in a row`}</Pill>
                    ) : (
                      <Pill tone="emerald">Healthy</Pill>
                    )}
                  </div>
                  <p className="text-xs text-slate-600">
                    Added <time dateTime={e.created_at}>{formatTimestamp(e.created_at, locale)}</time>
                    {e.last_success_at && (
                      <>
                        {" · last success "}
                        <time dateTime={e.last_success_at}>{formatTimestamp(e.last_success_at, locale)}</time>
                      </>
                    )}
                    {e.last_failure_at && (
                      <>
                        {" · last failure "}
                        <time dateTime={e.last_failure_at}>{formatTimestamp(e.last_failure_at, locale)}</time>
                      </>
                    )}
                  </p>
                  <p className="text-sm text-slate-700">Sends {e.event_types.length === 0 ? "every event" : e.event_types.map(eventLabel).join(", ")}.</p>
                  {e.enabled && e.failing_since && (
                    <p className="text-sm text-amber-800">
                      Failing since <time dateTime={e.failing_since}>{formatTimestamp(e.failing_since, locale)}</time>. After 5 days of failures it is disabled.
                    </p>
                  )}
                  {e.previous_secret_until && (
                    <p className="text-sm text-slate-700">
                      Secret changed: deliveries also carry the previous secret&apos;s signature until{" "}
                      <time dateTime={e.previous_secret_until}>{formatTimestamp(e.previous_secret_until, locale)}</time>.
                    </p>
                  )}
                  {!e.enabled && e.disabled_reason && <p className="text-sm text-rose-700">Disabled: {e.disabled_reason}.</p>}
                  {canWrite && <EndpointActions endpoint={e} />}
                </div>
              </li>
            ))}
          </ul>
        )}
        {canWrite && (
          <div className="mt-4 border-t border-slate-100 pt-4">
            <NewEndpointForm />
          </div>
        )}
      </Section>

      <Section
        title="Recent deliveries"
        id="deliveries"
        description={
          deliveries.length === 0
            ? "Each event's delivery to each endpoint, newest first."
            : `The ${deliveries.length === 100 ? "100 most recent deliveries" : deliveries.length === 1 ? "only delivery" : `${deliveries.length} deliveries`}, newest first${failed ? `; ${failed} failed` : ""}. A failed delivery can be retried.`
        }
      >
        {deliveries.length === 0 ? (
          <Empty>No deliveries yet.</Empty>
        ) : (
          <ul className="divide-y divide-slate-100">
            {deliveries.map((d) => (
              <li key={d.id} className="grid grid-cols-[minmax(0,1fr)_auto] gap-x-3 py-2.5">
                <div className="min-w-0">
                  <p className="text-sm">
                    <span className="font-medium">{d.event_type || "event"}</span>{" "}
                    <span className="break-all text-slate-600">→ {urlOf.get(d.endpoint_id) ?? "a deleted endpoint"}</span>
                  </p>
                  <p className="text-xs text-slate-600">
                    {d.attempts} {d.attempts === 1 ? "attempt" : "attempts"}
                    {d.last_response_status !== null ? ` · last HTTP ${d.last_response_status}` : ""}
                    {d.last_error ? ` · ${d.last_error}` : ""}
                    {d.last_attempt_at ? " · " : ""}
                    {d.last_attempt_at && <time dateTime={d.last_attempt_at}>{formatTimestamp(d.last_attempt_at, locale)}</time>}
                    {d.next_attempt_at && (
                      <>
                        {" · next "}
                        <time dateTime={d.next_attempt_at}>{formatTimestamp(d.next_attempt_at, locale)}</time>
                      </>
                    )}
                  </p>
                </div>
                <div className="flex flex-col items-end gap-1">
                  <Pill tone={STATUS_TONE[d.status]}>{d.status === "succeeded" ? "Succeeded" : d.status === "failed" ? "Failed" : "Pending"}</Pill>
                  {canWrite && d.status === "failed" && <RetryButton deliveryId={d.id} label={`${d.event_type} delivery`} />}
                </div>
              </li>
            ))}
          </ul>
        )}
      </Section>
    </div>
  );
}
