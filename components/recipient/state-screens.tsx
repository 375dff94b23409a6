"use client";

import { useI18n } from "@/components/recipient/i18n";

// Full-page states of the hosted page: each has a heading, a plain explanation and what
// the person can do next. The loading state reserves the height the invoice will fill, so
// nothing below it jumps when the invoice arrives.
export type ScreenKind = "loading" | "invalid" | "expired" | "revoked" | "network" | "error";

const TONES: Record<Exclude<ScreenKind, "loading">, string> = {
  invalid: "border-amber-300 bg-amber-50",
  expired: "border-amber-300 bg-amber-50",
  revoked: "border-amber-300 bg-amber-50",
  network: "border-rose-300 bg-rose-50",
  error: "border-rose-300 bg-rose-50",
};

export function StateScreen({ kind, onRetry }: { kind: ScreenKind; onRetry?: () => void }) {
  const { t } = useI18n();
  if (kind === "loading") {
    return (
      <section aria-labelledby="state-title" aria-busy="true" className="min-h-[150vh] space-y-5" data-state="loading">
        <div className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
          <h1 id="state-title" className="text-xl font-semibold">
            {t("loading.title")}
          </h1>
          <p className="mt-2 text-slate-700" role="status">
            {t("loading.body")}
          </p>
          <noscript>
            <p className="mt-2 text-slate-800">{t("loading.noscript")}</p>
          </noscript>
          <div aria-hidden="true" className="mt-5 h-28 animate-pulse rounded-lg bg-slate-100 motion-reduce:animate-none" />
          <div aria-hidden="true" className="mt-4 h-24 rounded-lg bg-slate-100" />
        </div>
        <div aria-hidden="true" className="h-96 rounded-xl border border-slate-200 bg-white" />
      </section>
    );
  }
  return (
    <section aria-labelledby="state-title" className={`rounded-xl border p-6 ${TONES[kind]}`} data-state={kind}>
      <h1 id="state-title" className="text-xl font-semibold" tabIndex={-1}>
        {t(`state.${kind}.title`)}
      </h1>
      <p className="mt-2 text-slate-800">{t(`state.${kind}.body`)}</p>
      {onRetry && (
        <button
          type="button"
          onClick={onRetry}
          className="mt-4 inline-flex min-h-11 items-center rounded-md bg-brand-700 px-4 py-2 font-medium text-white hover:bg-brand-900 print:hidden"
        >
          {t("state.retry")}
        </button>
      )}
    </section>
  );
}

export function PaidBanner({ issuer }: { issuer: string }) {
  const { t } = useI18n();
  return (
    <section aria-labelledby="paid-title" className="rounded-xl border border-emerald-300 bg-emerald-50 p-4 sm:p-6" data-state="reconciled">
      <h2 id="paid-title" className="text-lg font-semibold text-emerald-950">
        {t("paid.title")}
      </h2>
      <p className="mt-1 text-emerald-950">{t("paid.body", { issuer })}</p>
    </section>
  );
}
