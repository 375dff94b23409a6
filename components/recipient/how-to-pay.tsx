"use client";

import { useEffect, useState } from "react";
import { formatMinor, minorToDecimal } from "@/lib/money/format";
import { groupsOfFour } from "@/lib/payment-instructions/bank-details";
import { epcPayload, qrPath } from "@/lib/payment-instructions/epc-qr";
import type { TRecipientInvoice } from "@/lib/schemas/recipient";
import { amounts, issuerOf } from "@/components/recipient/present";
import { useI18n } from "@/components/recipient/i18n";
import { Card } from "@/components/recipient/ui";
import { whenIdle } from "@/components/recipient/idle";

// Where to send the money: the amount, the RF payment reference (groups of four), the
// issuer's bank details for the invoice's currency with copy buttons, and for EUR with an
// IBAN an EPC069-12 QR code ("GiroCode") that banking apps scan. The QR encoder is loaded
// only when there is a code to draw, and only after the invoice's first paint (its box is
// reserved), so it never weighs on the first load nor on the largest paint.
export function HowToPay({ inv }: { inv: TRecipientInvoice }) {
  const { t, locale } = useI18n();
  const pi = inv.payment_instructions;
  const a = amounts(inv);
  const amount = formatMinor(a.toTransfer, inv.currency, { locale });
  const reference = groupsOfFour(inv.payment_reference);
  const issuer = issuerOf(inv, t, true);
  const [announce, setAnnounce] = useState("");
  const copy = (what: string) => (ok: boolean) => setAnnounce(ok ? t("pay.copiedAnnounce", { what }) : t("pay.copyFailed"));

  return (
    <Card id="how-to-pay" title={t("pay.title")} description={pi ? t("pay.intro") : undefined}>
      <p role="status" aria-live="polite" className="sr-only">
        {announce}
      </p>
      <div className={pi?.iban && inv.currency === "EUR" ? "grid gap-5 sm:grid-cols-[1fr_auto] print:grid-cols-[1fr_auto]" : ""}>
        <dl className="space-y-3 text-sm">
          <Detail
            label={t("pay.amount")}
            value={amount}
            copyValue={minorToDecimal(a.toTransfer, inv.currency)}
            testId="pay-amount"
            onCopied={copy(t("pay.amount"))}
            big
          />
          <Detail
            label={t("pay.reference")}
            value={reference}
            copyValue={inv.payment_reference}
            testId="pay-reference"
            onCopied={copy(t("pay.reference"))}
            hint={t("pay.referenceHint")}
            big
            mono
          />
          {pi && (
            <>
              <Detail label={t("pay.holder")} value={pi.account_holder} testId="pay-holder" />
              {pi.iban && (
                <Detail label={t("pay.iban")} value={groupsOfFour(pi.iban)} copyValue={pi.iban} testId="pay-iban" onCopied={copy(t("pay.iban"))} mono />
              )}
              {pi.bic && <Detail label={t("pay.bic")} value={pi.bic} testId="pay-bic" mono />}
              {pi.account_number && <Detail label={t("pay.accountNumber")} value={pi.account_number} testId="pay-account-number" mono />}
              {pi.routing_number && <Detail label={t("pay.routingNumber")} value={pi.routing_number} testId="pay-routing-number" mono />}
              {pi.sort_code && <Detail label={t("pay.sortCode")} value={pi.sort_code} testId="pay-sort-code" mono />}
              {pi.bank_name && <Detail label={t("pay.bank")} value={pi.bank_name} testId="pay-bank" />}
              {pi.note && <Detail label={t("pay.note", { issuer })} value={pi.note} testId="pay-note" />}
            </>
          )}
        </dl>
        {pi?.iban && inv.currency === "EUR" && (
          <GiroCode
            payload={epcPayload({ bic: pi.bic, holder: pi.account_holder, iban: pi.iban, amountMinor: a.toTransfer, reference: inv.payment_reference })}
            label={t("pay.qrLabel", { amount, holder: pi.account_holder, reference })}
          />
        )}
      </div>
      {!pi && (
        <div className="mt-4 rounded-lg border border-amber-300 bg-amber-50 p-4" data-testid="pay-none">
          <p className="font-medium text-amber-950">{t("pay.noneTitle")}</p>
          <p className="mt-1 text-sm text-amber-950">{t("pay.none", { issuer, currency: inv.currency })}</p>
        </div>
      )}
    </Card>
  );
}

function Detail(props: {
  label: string;
  value: string;
  copyValue?: string;
  testId: string;
  onCopied?: (ok: boolean) => void;
  hint?: string;
  big?: boolean;
  mono?: boolean;
}) {
  const { t } = useI18n();
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const id = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(id);
  }, [copied]);
  return (
    <div className="min-w-0">
      <dt className="text-slate-600">{props.label}</dt>
      <dd className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <span
          className={`break-all font-semibold text-slate-900 ${props.big ? "text-lg" : ""} ${props.mono ? "font-mono tracking-wide" : ""}`}
          data-testid={props.testId}
        >
          {props.value}
        </span>
        {props.copyValue !== undefined && (
          <button
            type="button"
            className="inline-flex min-h-11 min-w-11 items-center rounded-md border border-slate-400 px-3 py-1 text-sm font-medium text-brand-700 hover:bg-slate-50 print:hidden"
            aria-label={t("pay.copyLabel", { what: props.label })}
            data-testid={`${props.testId}-copy`}
            onClick={async () => {
              let ok = false;
              try {
                await navigator.clipboard.writeText(props.copyValue ?? "");
                ok = true;
              } catch {
                ok = false;
              }
              setCopied(ok);
              props.onCopied?.(ok);
            }}
          >
            {copied ? t("pay.copied") : t("pay.copy")}
          </button>
        )}
        {props.hint && <span className="block w-full text-slate-600">{props.hint}</span>}
      </dd>
    </div>
  );
}

// The QR symbol is drawn as one SVG path; its box is reserved before the encoder arrives.
function GiroCode({ payload, label }: { payload: string | null; label: string }) {
  const { t } = useI18n();
  const [symbol, setSymbol] = useState<{ size: number; d: string } | null>(null);
  useEffect(() => {
    if (!payload) return;
    let live = true;
    // after the invoice's first paint, when the browser is idle: load the encoder, then
    // draw in a task of its own
    const cancel = whenIdle(() => {
      void import("qrcode").then((q) => {
        if (!live) return;
        whenIdle(() => {
          if (!live) return;
          // a CommonJS module: its exports may come as the namespace or as its default
          const create = q.create ?? (q as unknown as { default: typeof q }).default.create;
          const code = create(payload, { errorCorrectionLevel: "M" });
          setSymbol({ size: code.modules.size + 8, d: qrPath(code.modules) });
        });
      });
    });
    return () => {
      live = false;
      cancel();
    };
  }, [payload]);
  if (!payload) return null;
  return (
    <figure className="mx-auto w-52 text-center sm:mx-0 print:w-48" data-testid="girocode">
      <div className="aspect-square w-full rounded-md border border-slate-300 bg-white">
        {symbol && (
          <svg
            role="img"
            aria-label={label}
            viewBox={`0 0 ${symbol.size} ${symbol.size}`}
            className="h-full w-full"
            shapeRendering="crispEdges"
            data-testid="girocode-svg"
          >
            <rect width={symbol.size} height={symbol.size} fill="#fff" />
            <path d={symbol.d} fill="#000" />
          </svg>
        )}
      </div>
      <figcaption className="mt-2 text-left text-sm text-slate-700">
        <span className="block font-medium text-slate-900">{t("pay.qrTitle")}</span>
        {t("pay.qrHint")}
      </figcaption>
    </figure>
  );
}
