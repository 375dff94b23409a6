"use client";

import { useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useRouter } from "next/navigation";
import { apiCall } from "@/lib/client/api";
import { describeApiError, refreshAfter } from "@/lib/client/errors";
import { useSubmissionKey } from "@/lib/client/submission-key";
import { toAllocateBody, ZAllocateForm, type TAllocateForm } from "@/lib/dashboard/payment-forms";
import { minorToDecimal } from "@/lib/money/format";
import { FieldError, errorAttrs } from "@/components/ui/field-error";
import { btn, field } from "@/components/ui/styles";

type Option = { id: string; label: string; outstanding_minor: string; version: number };

// POST /payments/{id}/allocations: accept the payment as evidence for (part of) an
// obligation. Sends the obligation's version; a conflict re-reads the page.
export function AllocateForm({ paymentId, currency, unallocatedMinor, options }: { paymentId: string; currency: string; unallocatedMinor: string; options: Option[] }) {
  const router = useRouter();
  const keys = useSubmissionKey();
  const [message, setMessage] = useState<{ kind: "error" | "success"; text: string } | null>(null);
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
        setMessage(null);
        const o = options.find((x) => x.id === v.obligation_id);
        if (!o) return setError("obligation_id", { message: "Choose an obligation." });
        const { body, issues } = toAllocateBody(v, currency, o.version);
        if (!body) return issues.forEach((i) => setError(i.path[0] as keyof TAllocateForm, { message: i.message }));
        const r = await apiCall("POST", `/payments/${paymentId}/allocations`, { body, idempotencyKey: keys.keyFor(body) });
        if (r.ok || r.error.code !== "network_error") keys.settle();
        if (!r.ok) {
          setMessage({
            kind: "error",
            text:
              r.error.code === "allocation_exceeds_remaining"
                ? `That is more than is left: ${r.error.message}`
                : r.error.code === "version_conflict"
                  ? "The obligation changed since this page was loaded. The list now shows its latest state: check the amount and try again."
                  : describeApiError(r.error),
          });
          if (refreshAfter(r.error)) router.refresh();
          return;
        }
        reset({ obligation_id: "", amount: "" });
        setMessage({ kind: "success", text: "Allocated." });
        router.refresh();
      })}
    >
      <div>
        <label htmlFor="alloc-obligation" className={field.label}>
          Obligation
        </label>
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
          <option value="">Choose…</option>
          {options.map((o) => (
            <option key={o.id} value={o.id}>
              {o.label}
            </option>
          ))}
        </select>
        <FieldError id="alloc-obligation-error" message={formState.errors.obligation_id?.message} />
      </div>
      <div>
        <label htmlFor="alloc-amount" className={field.label}>
          Amount ({currency})
        </label>
        <input
          id="alloc-amount"
          inputMode="decimal"
          autoComplete="off"
          {...register("amount")}
          {...errorAttrs("alloc-amount-error", formState.errors.amount?.message)}
          className={field.input}
        />
        <FieldError id="alloc-amount-error" message={formState.errors.amount?.message} />
        {option && !formState.errors.amount && <p className={field.hint}>Outstanding {minorToDecimal(option.outstanding_minor, currency)}</p>}
      </div>
      <button type="submit" className={`${btn.primary} sm:mt-6`} disabled={formState.isSubmitting}>
        Allocate
      </button>
      {message && (
        <p role={message.kind === "error" ? "alert" : "status"} className={`text-sm sm:col-span-3 ${message.kind === "error" ? "text-rose-700" : "text-emerald-800"}`}>
          {message.text}
        </p>
      )}
    </form>
  );
}
