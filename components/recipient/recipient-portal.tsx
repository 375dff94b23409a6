"use client";

import { Suspense, lazy, useCallback, useEffect, useRef, useState } from "react";
import type { ApiError } from "@/lib/client/api";
import type { TRecipientAction, TRecipientInvoice } from "@/lib/schemas/recipient";
import type { RecipientMessages } from "@/lib/i18n/recipient/en";
import { useSubmissionKey } from "@/lib/client/submission-key";
import type { FirstLoad, Visit } from "@/components/recipient/boot";
import { I18nProvider, useI18n } from "@/components/recipient/i18n";
import { InvoiceOverview } from "@/components/recipient/invoice-overview";
import { HowToPay } from "@/components/recipient/how-to-pay";
import { Conditions, PaymentTerms } from "@/components/recipient/terms-and-conditions";
import { PaidBanner, StateScreen, type ScreenKind } from "@/components/recipient/state-screens";
import { issuerOf } from "@/components/recipient/present";
import { whenIdle } from "@/components/recipient/idle";

const loadInteractions = () => import("@/components/recipient/interactions");
const Interactions = lazy(loadInteractions);

// The client island of /r/{request}:
//  1. the page's entry script (components/recipient/boot.ts) has already read the token
//     from location.hash, removed it from the address bar (history.replaceState), and
//     started exchanging it through the request-scoped family (cookie scoped to this
//     request) and then loading the invoice; without a fragment (a reload) it uses the
//     existing cookie. The token stays in memory only until the exchange succeeded;
//  2. the island mounts when they are answered (until then the server's loading state stays),
//     renders their outcome (or the state it means) and offers the actions; every mutation
//     reloads the invoice. A retry after a failed exchange reuses token and key.
// Nothing here writes the token anywhere (no storage, no logs, no URLs).
// The language was chosen by the server; a choice made with the switcher (?lang=xx) is
// kept in the fos_lang cookie (Path=/r) and removed from the address.
type View = { kind: "screen"; screen: ScreenKind; retry?: boolean } | { kind: "ready"; invoice: TRecipientInvoice };

type Props = { visit: Visit | null; first: FirstLoad | null; messages: RecipientMessages; lang: string; locale: string; explicit: boolean };

// An error of any call -> the page state it means (null: the caller shows it inline).
function screenFor(e: ApiError): ScreenKind | null {
  if (e.code === "payment_request_revoked") return "revoked";
  if (e.code === "payment_request_expired") return "expired";
  if (e.status === 401 || e.status === 404) return "invalid";
  return null;
}

// A failed exchange or invoice request -> its state, with a retry unless it is final.
function failed(e: ApiError): View {
  const screen = screenFor(e);
  return { kind: "screen", screen: screen ?? (e.status === 0 ? "network" : "error"), retry: !screen };
}

// The outcome of the visit's first requests (started by the entry script) -> the first view.
function firstView(first: FirstLoad | null): View {
  if (!first) return { kind: "screen", screen: "invalid" };
  if (first.stage === "exchange") return failed(first.error);
  return first.result.ok ? { kind: "ready", invoice: first.result.data } : failed(first.result.error);
}

// Fetched by the rendering chunk while the link is being exchanged.
export const preloadInteractions = () => void loadInteractions();

export function RecipientPortal({ messages, locale, ...rest }: Props) {
  return (
    <I18nProvider messages={messages} locale={locale}>
      <Portal {...rest} />
    </I18nProvider>
  );
}

function Portal({ visit, first, lang, explicit }: Omit<Props, "messages" | "locale">) {
  const { t } = useI18n();
  // the island mounts once the first requests are answered: its first render is their outcome
  const [view, setView] = useState<View>(() => firstView(first));
  const [notice, setNotice] = useState("");
  const api = visit?.api ?? null;
  // kept only after a failed exchange, for the retry (with the same key)
  const tokenRef = useRef<string | null>(first?.stage === "exchange" ? (visit?.token ?? null) : null);
  const exchangeKey = useRef(visit?.exchangeKey ?? "");
  // a retry of the same submission after a network failure reuses its key
  const keys = useSubmissionKey();

  useEffect(() => {
    document.documentElement.lang = lang;
    if (!explicit) return;
    const secure = window.location.protocol === "https:" ? "; Secure" : "";
    document.cookie = `fos_lang=${lang}; Path=/r; Max-Age=31536000; SameSite=Lax${secure}`;
    const url = new URL(window.location.href);
    url.searchParams.delete("lang");
    window.history.replaceState(window.history.state, "", `${url.pathname}${url.search}${url.hash}`);
  }, [lang, explicit]);

  const load = useCallback(async (): Promise<TRecipientInvoice | null> => {
    if (!api) return null;
    const r = await api.invoice();
    setView(r.ok ? { kind: "ready", invoice: r.data } : failed(r.error));
    return r.ok ? r.data : null;
  }, [api]);

  // the retry of a failed first load
  const start = useCallback(async () => {
    if (!api) return;
    setView({ kind: "screen", screen: "loading" });
    const token = tokenRef.current;
    if (token) {
      // the same key on a retry: a replay still sets a fresh cookie and records one open
      const r = await api.exchange(token, exchangeKey.current);
      if (!r.ok) {
        setView(failed(r.error));
        return;
      }
      tokenRef.current = null;
    }
    await load();
  }, [api, load]);

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
      // the link's bounds (docs/security.md): 409 / 413 whose message starts "this link has reached"
      if ((e.code === "invalid_state" || e.code === "payload_too_large") && e.message.startsWith("this link has reached")) return t("err.linkFull");
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
    [load, t],
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

  // The forms, documents and messages join after the invoice's first paint, when the
  // browser is idle, so that paint stays small; their room is reserved until then.
  const ready = view.kind === "ready";
  const [rest, setRest] = useState(false);
  useEffect(() => (ready && !rest ? whenIdle(() => setRest(true)) : undefined), [ready, rest]);

  if (view.kind === "screen") return <StateScreen kind={view.screen} onRetry={view.retry ? () => void start() : undefined} />;

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
        {api && rest ? (
          <Interactions inv={inv} act={act} upload={upload} hrefOf={api.documentUrl} earlier={api.messages} />
        ) : (
          <div aria-hidden="true" className="h-96 print:hidden" />
        )}
      </Suspense>
    </div>
  );
}
