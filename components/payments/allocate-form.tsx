"use client";

import { useForm, useWatch } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { toAllocateBody, ZAllocateForm, type TAllocateForm } from "@/lib/dashboard/payment-forms";
import { minorToDecimal } from "@/lib/money/format";
import { FeedbackMessage } from "@/components/ui/feedback";
import { FieldError, Hint, Label, errorAttrs, ChoiceOptions } from "@/components/ui/field";
import { btn, field } from "@/components/ui/styles";
import { useMutation } from "@/components/ui/use-mutation";

type Option = { id: string; label: string; outstanding_minor: string; version: number };

// POST /payments/{id}/allocations: accept the payment as evidence for (part of) an
// obligation. Sends the obligation's version; a conflict re-reads the page.
export function AllocateForm({
  paymentId,
  currency,
  unallocatedMinor,
  options,
}: {
  paymentId: string;
  currency: string;
  unallocatedMinor: string;
  options: Option[];
}) {
  const { submit, pending, feedback } = useMutation();
  const { register, handleSubmit, control, formState, setValue, setError, reset } = useForm<TAllocateForm>({
    resolver: zodResolver(ZAllocateForm),
    defaultValues: { obligation_id: "", amount: "" },
  });
  const selected = useWatch({ control, name: "obligation_id" });
  const option = options.find((o) => o.id === selected);

  if (options.length === 0) return <p className="text-sm text-slate-600">No open obligation in {currency} to allocate to.</p>;
  return (
    <form
      noValidate
      aria-label="Allocate to an obligation"
      className="grid gap-3 sm:grid-cols-[1fr_10rem_auto] sm:items-start"
      onSubmit={handleSubmit(async (v) => {
        const o = options.find((x) => x.id === v.obligation_id);
        if (!o) return setError("obligation_id", { message: "Choose an obligation." });
        const { body, issues } = toAllocateBody(v, currency, o.version);
        if (!body) {
          for (const i of issues) setError(i.path[0] as keyof TAllocateForm, { message: i.message });
          return;
        }
        const r = await submit({
          path: `/payments/${paymentId}/allocations`,
          body,
          success: "Allocated.",
          describe: (e) =>
            e.code === "allocation_exceeds_remaining"
              ? `That is more than is left: ${e.message}`
              : e.code === "version_conflict"
                ? "The obligation changed since this page was loaded. The list now shows its latest state: check the amount and try again."
                : undefined,
        });
        if (r.ok) reset({ obligation_id: "", amount: "" });
      })}
    >
      <div>
        <Label htmlFor="alloc-obligation">Obligation</Label>
        <select
          id="alloc-obligation"
          {...register("obligation_id", {
            onChange: (e) => {
              const o = options.find((x) => x.id === e.target.value);
              if (o) {
                const max = BigInt(o.outstanding_minor) < BigInt(unallocatedMinor) ? o.outstanding_minor : unallocatedMinor;
                setValue("amount", minorToDecimal(max, currency));
              }
            },
          })}
          {...errorAttrs("alloc-obligation-error", formState.errors.obligation_id?.message)}
          className={field.input}
        >
          <ChoiceOptions options={options} />
        </select>
        <FieldError id="alloc-obligation-error" message={formState.errors.obligation_id?.message} />
      </div>
      <div>
        <Label htmlFor="alloc-amount">Amount ({currency})</Label>
        <input
          id="alloc-amount"
          inputMode="decimal"
          autoComplete="off"
          {...register("amount")}
          {...errorAttrs("alloc-amount-error", formState.errors.amount?.message)}
          className={field.input}
        />
        <FieldError id="alloc-amount-error" message={formState.errors.amount?.message} />
        {option && !formState.errors.amount && <Hint>Outstanding {minorToDecimal(option.outstanding_minor, currency)}</Hint>}
      </div>
      <button type="submit" className={`${btn.primary} sm:mt-6`} disabled={pending}>
        Allocate
      </button>
      <FeedbackMessage feedback={feedback} className="sm:col-span-3" />
    </form>
  );
}
