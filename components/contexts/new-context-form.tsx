"use client";

import { useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useRouter } from "next/navigation";
import { apiCall } from "@/lib/client/api";
import { describeApiError } from "@/lib/client/errors";
import { useSubmissionKey } from "@/lib/client/submission-key";
import { CONTEXT_TYPES, DEFAULT_TYPE_LABEL, ZCreateBusinessContext } from "@/lib/schemas/contexts";
import { FieldError, errorAttrs } from "@/components/ui/field-error";
import { btn, field } from "@/components/ui/styles";

type Values = { type: (typeof CONTEXT_TYPES)[number]; name: string; reference?: string };

// POST /business-contexts with the API's own schema.
export function NewContextForm() {
  const router = useRouter();
  const keys = useSubmissionKey();
  const [message, setMessage] = useState<{ kind: "error" | "success"; text: string } | null>(null);
  const { register, handleSubmit, formState, reset } = useForm<Values>({
    resolver: zodResolver(ZCreateBusinessContext.pick({ type: true, name: true, reference: true }), {
      error: (iss) => (iss.code === "too_small" ? "Enter a name." : iss.code === "too_big" ? "At most 200 characters." : undefined),
    }),
    defaultValues: { type: "company", name: "", reference: "" },
  });
  return (
    <form
      noValidate
      aria-label="New business context"
      className="grid gap-3 sm:grid-cols-[10rem_1fr_12rem_auto] sm:items-start"
      onSubmit={handleSubmit(async (v) => {
        setMessage(null);
        const body = { type: v.type, name: v.name, ...(v.reference ? { reference: v.reference } : {}) };
        const r = await apiCall<{ id: string; name: string }>("POST", "/business-contexts", { body, idempotencyKey: keys.keyFor(body) });
        if (r.ok || r.error.code !== "network_error") keys.settle();
        if (!r.ok) return setMessage({ kind: "error", text: describeApiError(r.error) });
        reset({ type: v.type, name: "", reference: "" });
        setMessage({ kind: "success", text: `“${r.data.name}” created.` });
        router.refresh();
      })}
    >
      <div>
        <label htmlFor="ctx-type" className={field.label}>
          Type
        </label>
        <select id="ctx-type" {...register("type")} className={field.input}>
          {CONTEXT_TYPES.map((t) => (
            <option key={t} value={t}>
              {DEFAULT_TYPE_LABEL[t]}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor="ctx-name" className={field.label}>
          Name
        </label>
        <input
          id="ctx-name"
          {...register("name")}
          {...errorAttrs("ctx-name-error", formState.errors.name?.message)}
          className={field.input}
        />
        <FieldError
          id="ctx-name-error"
          message={formState.errors.name?.type === "too_small" ? "Enter a name." : formState.errors.name?.message}
        />
      </div>
      <div>
        <label htmlFor="ctx-reference" className={field.label}>
          Reference
        </label>
        <input id="ctx-reference" {...register("reference")} className={field.input} placeholder="e.g. PRJ-2026-014" />
      </div>
      <button type="submit" className={`${btn.primary} sm:mt-6`} disabled={formState.isSubmitting}>
        Create
      </button>
      {message && (
        <p role={message.kind === "error" ? "alert" : "status"} className={`sm:col-span-4 text-sm ${message.kind === "error" ? "text-rose-700" : "text-emerald-800"}`}>
          {message.text}
        </p>
      )}
    </form>
  );
}
