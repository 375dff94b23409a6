"use client";

import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { ApiError } from "@/lib/client/api";
import type { TRecipientAction, TRecipientInvoice } from "@/lib/schemas/recipient";
import { newIdempotencyKey } from "@/lib/client/idempotency-key";
import { useSubmissionKey } from "@/lib/client/submission-key";
import { recipientApi } from "@/components/recipient/recipient-api";
import { amounts } from "@/components/recipient/present";
import { InvoiceOverview } from "@/components/recipient/invoice-overview";
import { Conditions, PaymentTerms } from "@/components/recipient/terms-and-conditions";
import { AcknowledgeCard, ReportPaymentCard, ShareDateCard } from "@/components/recipient/action-forms";
import { Messages } from "@/components/recipient/messages";
import { Documents } from "@/components/recipient/documents";
import { PaidBanner, StateScreen, type ScreenKind } from "@/components/recipient/state-screens";

// The client island of /r/{request}:
//  1. reads the token from location.hash and removes it from the address bar at once
//     (history.replaceState), keeping it only in memory until the exchange succeeded;
//  2. exchanges it through the request-scoped family (cookie scoped to this request);
//     without a fragment (a reload) it uses the existing cookie;
//  3. loads the invoice and offers the actions; every mutation reloads the invoice.
// Nothing here writes the token anywhere (no storage, no logs, no URLs).
type View = { kind: "screen"; screen: ScreenKind; retry?: () => void } | { kind: "ready"; invoice: TRecipientInvoice };

export function RecipientPortal({ requestId }: { requestId: string | null }) {
  const [view, setView] = useState<View>({ kind: "screen", screen: requestId ? "loading" : "invalid" });
  const [notice, setNotice] = useState("");
  const api = useMemo(() => (requestId ? recipientApi(requestId) : null), [requestId]);
  const tokenRef = useRef<string | null>(null);
  const exchangeKey = useRef(newIdempotencyKey());
  // a retry of the same submission after a network failure reuses its key
  const keys = useSubmissionKey();
  const started = useRef(false);
  const locale = typeof navigator !== "undefined" ? navigator.languages : undefined;

  // An error of any call -> the page state it means (null: the caller shows it inline).
  const screenFor = useCallback((e: ApiError): ScreenKind | null => {
    if (e.code === "payment_request_revoked") return "revoked";
    if (e.code === "payment_request_expired") return "expired";
    if (e.status === 401 || e.status === 404) return "invalid";
    return null;
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `start` (below) calls `load` and is only its retry action; listing it would loop the two callbacks
  const load = useCallback(async (): Promise<TRecipientInvoice | null> => {
    if (!api) return null;
    const r = await api.invoice();
    if (r.ok) {
      setView({ kind: "ready", invoice: r.data });
      return r.data;
    }
    const screen = screenFor(r.error);
    setView({ kind: "screen", screen: screen ?? (r.error.status === 0 ? "network" : "error"), retry: screen ? undefined : () => void start() });
    return null;
  }, [api, screenFor]);

  const start = useCallback(async () => {
    if (!api) return;
    setView({ kind: "screen", screen: "loading" });
    const token = tokenRef.current;
    if (token) {
      // the same key on a retry: a replay still sets a fresh cookie and records one open
      const r = await api.exchange(token, exchangeKey.current);
      if (!r.ok) {
        const screen = screenFor(r.error);
        setView({ kind: "screen", screen: screen ?? (r.error.status === 0 ? "network" : "error"), retry: screen ? undefined : () => void start() });
        return;
      }
      tokenRef.current = null;
    }
    await load();
  }, [api, load, screenFor]);

  useEffect(() => {
    if (started.current || !api) return;
    started.current = true;
    const hash = window.location.hash.replace(/^#/, "");
    if (hash) {
      window.history.replaceState(window.history.state, "", `${window.location.pathname}${window.location.search}`);
      tokenRef.current = hash;
    }
    void start();
  }, [api, start]);

  // Turns the outcome of a mutation into the page: success -> reload + announce;
  // errors -> a page state (revoked, expired, ended) or a message next to the form.
  const settle = useCallback(
    async (r: { ok: true } | { ok: false; error: ApiError }, success: string, what: string): Promise<string | null> => {
      if (r.ok) {
        await load();
        setNotice(success);
        return null;
      }
      const e = r.error;
      const screen = screenFor(e);
      if (screen) {
        setView({ kind: "screen", screen });
        return null;
      }
      if (e.code === "version_conflict" || e.code === "invalid_state") {
        await load();
        return e.code === "version_conflict"
          ? "This page was out of date, so we refreshed it. Please check the details and try again."
          : `This could not be done: ${e.message}. The page has been refreshed.`;
      }
      if (e.status === 0) return `We could not reach the service, so your ${what} was not sent. Check your connection and try again.`;
      if (e.code === "payload_too_large") return "The file is too large. Choose a file of at most 10 MB.";
      if (e.code === "unsupported_media_type") return "This type of file is not accepted. Use PDF, PNG, JPEG, WebP, CSV, plain text or XML.";
      if (e.code === "rate_limited") return "Too many requests in a short time. Wait a minute and try again.";
      if (e.status === 422) return `Please check the form: ${e.message}`;
      return `Your ${what} could not be sent. Please try again.`;
    },
    [load, screenFor],
  );

  const act = useCallback(
    async (body: TRecipientAction, success: string) => {
      if (!api) return null;
      setNotice("");
      const what = { acknowledge: "confirmation", share_dates: "date", report_payment: "payment report", post_message: "message" }[body.action];
      const r = await api.act(body, keys.keyFor(body));
      if (r.ok || r.error.code !== "network_error") keys.settle();
      return settle(r, success, what);
    },
    [api, settle, keys],
  );

  const upload = useCallback(
    async (form: FormData, success: string) => {
      if (!api) return null;
      setNotice("");
      const r = await api.upload(form, keys.keyFor(form));
      if (r.ok || r.error.code !== "network_error") keys.settle();
      return settle(r, success, "document");
    },
    [api, settle, keys],
  );

  if (view.kind === "screen") return <StateScreen kind={view.screen} onRetry={view.retry} />;

  const inv = view.invoice;
  const paid = inv.status === "RECONCILED";
  return (
    <div className="space-y-5" data-state={paid ? "reconciled" : "ready"}>
      <p role="status" aria-live="polite" className={notice ? "rounded-lg border border-emerald-300 bg-emerald-50 px-4 py-3 text-emerald-950" : "sr-only"}>
        {notice}
      </p>
      {paid && <PaidBanner issuer={inv.issuer_name} />}
      <InvoiceOverview inv={inv} locale={locale} />
      <PaymentTerms inv={inv} locale={locale} />
      <Conditions inv={inv} locale={locale} />
      {!paid && (
        <>
          <AcknowledgeCard inv={inv} act={act} />
          <ShareDateCard key={`date-${inv.version}`} inv={inv} act={act} locale={locale} />
          <ReportPaymentCard inv={inv} act={act} locale={locale} suggestedMinor={amounts(inv).toPayNow} />
        </>
      )}
      {api && <Documents inv={inv} locale={locale} hrefOf={api.documentUrl} upload={upload} canUpload={!paid} />}
      <Messages inv={inv} act={act} locale={locale} />
    </div>
  );
}
