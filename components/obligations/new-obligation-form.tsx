"use client";

import { useMemo, useRef } from "react";
import { useForm, useWatch } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useRouter } from "next/navigation";
import type { TMutationResult } from "@/lib/schemas/obligations";
import { defaultFormValues, humanError, toRegisterBody, ZObligationFormValues, type TObligationFormValues } from "@/lib/dashboard/obligation-form";
import { formatMinor, parseDecimalToMinor, parsePercentToBasisPoints } from "@/lib/money/format";
import { termAmounts, type TermSpec } from "@/lib/obligations/terms";
import { btn } from "@/components/ui/styles";
import { useMutation } from "@/components/ui/use-mutation";
import { rememberNewLink } from "@/components/obligations/new-link-store";
import { ErrorSummary, flattenErrors } from "@/components/obligations/registration/error-summary";
import { AmountSection, CounterpartySection, KindSection, ReferenceSection } from "@/components/obligations/registration/basics-sections";
import { ConditionsSection } from "@/components/obligations/registration/conditions-section";
import { TermsSection, type TermPreview } from "@/components/obligations/registration/terms-section";
import { ContextsSection, type ContextOption } from "@/components/obligations/registration/contexts-section";

type Props = { defaultDeadline: string; defaultCurrency: string; locale: string; contexts: ContextOption[] };

// What each term comes to, as the service will compute it (null while an amount is unreadable).
function previewTerms(values: TObligationFormValues, currency: string, locale: string): TermPreview {
  const amount = parseDecimalToMinor(values.amount ?? "", currency);
  const rows = values.payment_terms ?? [];
  if (!amount.ok || rows.length === 0) return null;
  const specs: TermSpec[] = [];
  for (const [i, t] of rows.entries()) {
    if (t.amount_type === "fixed") {
      const a = parseDecimalToMinor(t.amount ?? "", currency);
      if (!a.ok) return null;
      specs.push({ sequence: i + 1, amountType: "fixed", fixedAmountMinor: BigInt(a.minor), triggerType: "immediately", dueRule: "immediately" });
    } else {
      const p = parsePercentToBasisPoints(t.percent ?? "");
      if (!p.ok) return null;
      specs.push({ sequence: i + 1, amountType: "percentage", percentageBasisPoints: p.basisPoints, triggerType: "immediately", dueRule: "immediately" });
    }
  }
  const amounts = termAmounts(BigInt(amount.minor), specs);
  const total = amounts.reduce((a, b) => a + b, 0n);
  return {
    amounts: amounts.map((a) => formatMinor(a, currency, { locale })),
    total: formatMinor(total, currency, { locale }),
    matches: total === BigInt(amount.minor),
  };
}

// Registration of an obligation (POST /obligations) as a form. Amounts are typed as
// decimals and converted to minor units with string math; the values are validated with
// the API's schemas (lib/dashboard/obligation-form.ts) before anything is sent. Each card
// of the form is a section component (components/obligations/registration/).
export function NewObligationForm({ defaultDeadline, defaultCurrency, locale, contexts }: Props) {
  const router = useRouter();
  const { submit, pending, feedback } = useMutation();
  const summaryRef = useRef<HTMLDivElement>(null);
  const form = useForm<TObligationFormValues>({
    resolver: zodResolver(ZObligationFormValues, { error: humanError }),
    defaultValues: defaultFormValues({ deadline: defaultDeadline, currency: defaultCurrency }),
    mode: "onSubmit",
    reValidateMode: "onChange",
  });
  const { control, handleSubmit, formState } = form;
  const values = useWatch({ control }) as TObligationFormValues;
  const currency = values.currency ?? "EUR";
  const focusSummary = () => requestAnimationFrame(() => summaryRef.current?.focus());

  const amountPreview = useMemo(() => {
    const r = parseDecimalToMinor(values.amount ?? "", currency);
    return r.ok ? formatMinor(r.minor, currency, { locale }) : "";
  }, [values.amount, currency, locale]);
  const termPreview = useMemo(() => previewTerms(values, currency, locale), [values, currency, locale]);

  const onSubmit = handleSubmit(async (v) => {
    const { body } = toRegisterBody(v);
    if (!body) return;
    // success opens the obligation's page, which shows the fresh link once
    const r = await submit<TMutationResult>({ path: "/obligations", body, refresh: false });
    if (!r.ok) return focusSummary();
    const id = r.data.invoice.id;
    if (r.data.payment_request)
      rememberNewLink({ obligationId: id, hostedUrl: r.data.payment_request.hosted_url, expiresAt: r.data.payment_request.expires_at });
    router.push(`/dashboard/obligations/${id}`);
  }, focusSummary);

  const serverError = feedback?.kind === "error" ? feedback.text : null;
  const showSummary = serverError || (formState.isSubmitted && flattenErrors(formState.errors).length > 0);

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-6" aria-describedby="form-intro">
      <p id="form-intro" className="text-sm text-slate-600">
        Fields marked <span aria-hidden="true">*</span>
        <span className="sr-only">with an asterisk</span> are required. Registering creates a secure link for your counterparty; you send it in your own
        message.
      </p>
      {showSummary && <ErrorSummary summaryRef={summaryRef} serverError={serverError} errors={formState.errors} />}
      <KindSection form={form} />
      <CounterpartySection form={form} role={values.organization_role ?? "creditor"} />
      <AmountSection form={form} currency={currency} amountPreview={amountPreview} />
      <ReferenceSection form={form} />
      <ConditionsSection form={form} />
      <TermsSection form={form} values={values} currency={currency} amountPreview={amountPreview} preview={termPreview} />
      <ContextsSection form={form} contexts={contexts} />
      <div className="flex flex-wrap items-center gap-3">
        <button type="submit" disabled={pending || formState.isSubmitting} className={btn.primary}>
          {pending || formState.isSubmitting ? "Registering…" : "Register obligation"}
        </button>
        <a href="/dashboard/obligations" className="text-sm text-slate-700 underline">
          Cancel
        </a>
      </div>
    </form>
  );
}
