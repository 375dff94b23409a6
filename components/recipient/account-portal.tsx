"use client";

import { useCallback, useState } from "react";
import { type ApiError, type ApiResult, apiCall } from "@/lib/client/api";
import { newIdempotencyKey } from "@/lib/client/idempotency-key";
import { formatMinor } from "@/lib/money/format";
import { groupsOfFour } from "@/lib/payment-instructions/bank-details";
import type { RecipientMessages } from "@/lib/i18n/recipient/en";
import type { TRecipientAction, TRecipientInvoice } from "@/lib/schemas/recipient";
import type { TBasket } from "@/lib/schemas/counterparties";
import { I18nProvider, useI18n } from "@/components/recipient/i18n";
import { StateScreen, type ScreenKind } from "@/components/recipient/state-screens";
import { HowToPay } from "@/components/recipient/how-to-pay";
import { amounts, issuerOf, statusWords } from "@/components/recipient/present";
import { Badge, Card, CardScope, FormAlert } from "@/components/recipient/ui";
import Interactions from "@/components/recipient/interactions";

export type AccountView = { counterparty: { name: string; email: string | null }; obligations: TRecipientInvoice[] };

const MARKER = { "x-service-request": "1" };

const screenFor = (e: ApiError): ScreenKind =>
  e.code === "payment_request_revoked"
    ? "revoked"
    : e.code === "payment_request_expired"
      ? "expired"
      : e.status === 401 || e.status === 404
        ? "invalid"
        : e.status === 0
          ? "network"
          : "error";

// The payer's account (/a/{account}): every open invoice with its status, amounts, due date,
// documents and replies, and a basket builder: the ticked invoices (one currency) become one
// transfer with its own payment reference, bank details and QR code (docs/recipient-portal.md).
export function AccountPortal(props: { accountId: string; first: ApiResult<AccountView>; messages: RecipientMessages; locale: string }) {
  return (
    <I18nProvider messages={props.messages} locale={props.locale}>
      <Account {...props} />
    </I18nProvider>
  );
}

function Account({ accountId, first }: { accountId: string; first: ApiResult<AccountView> }) {
  const { t, locale } = useI18n();
  const [view, setView] = useState(first);
  const [picked, setPicked] = useState<string[]>([]);
  const [basket, setBasket] = useState<TBasket | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // what the last action on each invoice did, announced next to its forms
  const [notices, setNotices] = useState<Record<string, string>>({});
  const notify = (id: string, text: string) => setNotices((n) => ({ ...n, [id]: text }));
  const base = `/recipient/accounts/${accountId}`;
  const reload = useCallback(async () => setView(await apiCall<AccountView>("GET", base)), [base]);

  const actFor = (id: string) => async (body: TRecipientAction, success: string) => {
    notify(id, "");
    const r = await apiCall("POST", `${base}/obligations/${id}/actions`, { body, idempotencyKey: newIdempotencyKey(), headers: MARKER });
    await reload();
    if (r.ok) notify(id, success);
    return r.ok
      ? null
      : r.error.status === 409
        ? t("err.outdated")
        : r.error.status === 422
          ? t("err.validation", { message: r.error.message })
          : t("err.generic");
  };
  const uploadFor = (id: string) => async (form: FormData, success: string) => {
    notify(id, "");
    const r = await apiCall("POST", `${base}/obligations/${id}/documents`, { form, idempotencyKey: newIdempotencyKey(), headers: MARKER });
    await reload();
    if (r.ok) notify(id, success);
    return r.ok ? null : r.error.code === "unsupported_media_type" ? t("err.mediaType") : t("err.generic");
  };

  if (!view.ok) return <StateScreen kind={screenFor(view.error)} />;
  const obligations = view.data.obligations;
  const chosen = obligations.filter((o) => picked.includes(o.id));
  const currencies = new Set(chosen.map((o) => o.currency));
  const total = chosen.reduce((s, o) => s + BigInt(amounts(o).toTransfer), 0n);
  const issuer = obligations[0] ? issuerOf(obligations[0], t, true) : "";

  const make = async () => {
    setBusy(true);
    setError(null);
    const r = await apiCall<TBasket>("POST", `${base}/baskets`, {
      body: { items: chosen.map((o) => ({ obligation_id: o.id, amount_minor: amounts(o).toTransfer })) },
      idempotencyKey: newIdempotencyKey(),
      headers: MARKER,
    });
    setBusy(false);
    if (r.ok) setBasket(r.data);
    else setError(r.error.status === 0 ? t("err.network") : t("err.generic"));
  };
  // The basket as the payment card reads an invoice: its total due now, its own reference.
  const basketInvoice = (b: TBasket): TRecipientInvoice => {
    const o = chosen[0] ?? obligations[0];
    return {
      ...o,
      amount_minor: b.amount_minor,
      allocated_minor: "0",
      due_minor: b.amount_minor,
      payable_minor: b.amount_minor,
      payment_terms: [],
      payment_reference: b.payment_reference,
    };
  };

  return (
    <div className="space-y-5" data-state="account">
      <section aria-labelledby="account-title" className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
        <h1 id="account-title" className="text-xl font-semibold">
          {t("account.title", { issuer })}
        </h1>
        <p className="mt-1 mb-3 text-slate-700">{t("account.intro", { issuer })}</p>
        {obligations.length === 0 ? (
          <p>{t("account.empty")}</p>
        ) : (
          <ul className="divide-y divide-slate-200" aria-label={t("account.title", { issuer })}>
            {obligations.map((o) => {
              const s = statusWords(o, t);
              const a = amounts(o);
              const label = t("account.invoice", { number: o.invoice_number || o.reference });
              return (
                <li key={o.id} className="py-3" data-testid="account-invoice">
                  <div className="flex flex-wrap items-start justify-between gap-2">
                    <div className="min-w-0">
                      <p id={`invoice-${o.id}`} className="font-medium break-words">
                        {label}
                      </p>
                      <p className="text-sm text-slate-700">
                        {t("account.open", { amount: formatMinor(a.outstanding, o.currency, { locale }) })} ·{" "}
                        {t("account.due", {
                          date: new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" }).format(new Date(`${o.due_date}T00:00:00Z`)),
                        })}
                      </p>
                    </div>
                    <Badge tone={s.tone}>{s.label}</Badge>
                  </div>
                  <label className="mt-2 flex min-h-11 items-center gap-2 text-sm">
                    <input
                      type="checkbox"
                      className="h-5 w-5"
                      checked={picked.includes(o.id)}
                      aria-label={`${t("account.select")}: ${label}`}
                      onChange={(e) => {
                        setBasket(null);
                        setPicked((p) => (e.currentTarget.checked ? [...p, o.id] : p.filter((x) => x !== o.id)));
                      }}
                    />
                    <span aria-hidden="true">{t("account.select")}</span>
                  </label>
                  <details className="mt-1">
                    <summary className="min-h-11 cursor-pointer py-2 text-sm text-brand-700">{t("account.details")}</summary>
                    <div className="mt-2 space-y-5">
                      <p
                        role="status"
                        aria-live="polite"
                        className={notices[o.id] ? "rounded-lg border border-emerald-300 bg-emerald-50 px-4 py-3 text-emerald-950" : "sr-only"}
                      >
                        {notices[o.id]}
                      </p>
                      <CardScope.Provider value={{ key: o.id, labelId: `invoice-${o.id}` }}>
                        <Interactions
                          inv={o}
                          act={actFor(o.id)}
                          upload={uploadFor(o.id)}
                          hrefOf={(doc) => `/api/v1${base}/obligations/${o.id}/documents/${doc}`}
                          earlier={(offset) =>
                            apiCall<{ items: TRecipientInvoice["messages"] }>("GET", `${base}/obligations/${o.id}/messages?limit=100&offset=${offset}`)
                          }
                        />
                      </CardScope.Provider>
                    </div>
                  </details>
                </li>
              );
            })}
          </ul>
        )}
      </section>
      {chosen.length > 0 && (
        <Card id="basket" title={t("account.total", { count: chosen.length })}>
          {currencies.size > 1 ? (
            <FormAlert message={t("account.oneCurrency")} />
          ) : (
            <>
              <p className="text-2xl font-semibold tabular-nums" data-testid="basket-total">
                {formatMinor(total.toString(), chosen[0].currency, { locale })}
              </p>
              <button
                type="button"
                disabled={busy}
                onClick={make}
                className="mt-3 inline-flex min-h-11 items-center rounded-md bg-brand-700 px-4 font-medium text-white disabled:opacity-60"
              >
                {t("account.make")}
              </button>
              <FormAlert message={error} />
            </>
          )}
        </Card>
      )}
      {basket && (
        <section
          aria-label={t("account.basketTitle", { count: basket.items.length })}
          className="space-y-2"
          data-testid="basket"
          data-reference={groupsOfFour(basket.payment_reference)}
        >
          <p className="font-medium">{t("account.basketTitle", { count: basket.items.length })}</p>
          <p className="text-sm text-slate-700">{t("account.basketIntro")}</p>
          <HowToPay inv={basketInvoice(basket)} />
        </section>
      )}
    </div>
  );
}
