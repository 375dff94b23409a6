"use client";

import { Suspense, lazy, useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { ApiError } from "@/lib/client/api";
import type { TRecipientAction, TRecipientInvoice } from "@/lib/schemas/recipient";
import type { RecipientMessages } from "@/lib/i18n/recipient/en";
import { newIdempotencyKey } from "@/lib/client/idempotency-key";
import { useSubmissionKey } from "@/lib/client/submission-key";
import { recipientApi } from "@/components/recipient/recipient-api";
import { I18nProvider, useI18n } from "@/components/recipient/i18n";
import { InvoiceOverview } from "@/components/recipient/invoice-overview";
import { HowToPay } from "@/components/recipient/how-to-pay";
import { Conditions, PaymentTerms } from "@/components/recipient/terms-and-conditions";
import { PaidBanner, StateScreen, type ScreenKind } from "@/components/recipient/state-screens";
import { issuerOf } from "@/components/recipient/present";

const loadInteractions = () => import("@/components/recipient/interactions");
const Interactions = lazy(loadInteractions);

// The client island of /r/{request}:
//  1. reads the token from location.hash and removes it from the address bar at once
//     (history.replaceState), keeping it only in memory until the exchange succeeded;
//  2. exchanges it through the request-scoped family (cookie scoped to this request);
//     without a fragment (a reload) it uses the existing cookie;
//  3. loads the invoice and offers the actions; every mutation reloads the invoice.
// Nothing here writes the token anywhere (no storage, no logs, no URLs).
// The language was chosen by the server; a choice made with the switcher (?lang=xx) is
// kept in the fos_lang cookie (Path=/r) and removed from the address.
type View = { kind: "screen"; screen: ScreenKind; retry?: () => void } | { kind: "ready"; invoice: TRecipientInvoice };

type Props = { requestId: string | null; messages: RecipientMessages; lang: string; locale: string; explicit: boolean };

export function RecipientPortal({ messages, locale, ...rest }: Props) {
  return (
    <I18nProvider messages={messages} locale={locale}>
      <Portal {...rest} />
    </I18nProvider>
  );
}

function Portal({ requestId, lang, explicit }: Omit<Props, "messages" | "locale">) {
  const { t } = useI18n();
  const [view, setView] = useState<View>({ kind: "screen", screen: requestId ? "loading" : "invalid" });
  const [notice, setNotice] = useState("");
  const api = useMemo(() => (requestId ? recipientApi(requestId) : null), [requestId]);
  const tokenRef = useRef<string | null>(null);
  const exchangeKey = useRef(newIdempotencyKey());
  // a retry of the same submission after a network failure reuses its key
  const keys = useSubmissionKey();
  const started = useRef(false);

  useEffect(() => {
    document.documentElement.lang = lang;
    if (!explicit) return;
    const secure = window.location.protocol === "https:" ? "; Secure" : "";
    document.cookie = `fos_lang=${lang}; Path=/r; Max-Age=31536000; SameSite=Lax${secure}`;
    const url = new URL(window.location.href);
    url.searchParams.delete("lang");
    window.history.replaceState(window.history.state, "", `${url.pathname}${url.search}${url.hash}`);
  }, [lang, explicit]);

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
    void loadInteractions(); // in parallel with the exchange
    void start();
  }, [api, start]);

  // Turns the outcome of a mutation into the page: success -> reload + announce;
  // errors -> a page state (revoked, expired, ended) or a message next to the form.
  const settle = useCallback(
    async (r: { ok: true } | { ok: false; error: ApiError }, success: string): Promise<string | null> => {
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
        return e.code === "version_conflict" ? t("err.outdated") : t("err.invalidState", { message: e.message });
      }
      if (e.status === 0) return t("err.network");
      if (e.code === "payload_too_large") return t("err.tooLarge");
      if (e.code === "unsupported_media_type") return t("err.mediaType");
      if (e.code === "rate_limited") return t("err.rateLimited");
      if (e.status === 422) return t("err.validation", { message: e.message });
      return t("err.generic");
    },
    [load, screenFor, t],
  );

  const act = useCallback(
    async (body: TRecipientAction, success: string) => {
      if (!api) return null;
      setNotice("");
      const r = await api.act(body, keys.keyFor(body));
      if (r.ok || r.error.code !== "network_error") keys.settle();
      return settle(r, success);
    },
    [api, settle, keys],
  );

  const upload = useCallback(
    async (form: FormData, success: string) => {
      if (!api) return null;
      setNotice("");
      const r = await api.upload(form, keys.keyFor(form));
      if (r.ok || r.error.code !== "network_error") keys.settle();
      return settle(r, success);
    },
    [api, settle, keys],
  );

  if (view.kind === "screen") return <StateScreen kind={view.screen} onRetry={view.retry} />;

  const inv = view.invoice;
  const paid = inv.status === "RECONCILED";
  return (
    <div className="space-y-5" data-state={paid ? "reconciled" : "ready"}>
      <p
        role="status"
        aria-live="polite"
        className={notice ? "rounded-lg border border-emerald-300 bg-emerald-50 px-4 py-3 text-emerald-950 print:hidden" : "sr-only"}
      >
        {notice}
      </p>
      {paid && <PaidBanner issuer={issuerOf(inv, t, true)} />}
      <InvoiceOverview inv={inv} />
      {!paid && <HowToPay inv={inv} />}
      <PaymentTerms inv={inv} />
      <Conditions inv={inv} />
      <Suspense fallback={<div aria-hidden="true" className="h-96 print:hidden" />}>
        {api && <Interactions inv={inv} act={act} upload={upload} hrefOf={api.documentUrl} />}
      </Suspense>
    </div>
  );
}
