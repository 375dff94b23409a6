"use client";

import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { CONTEXT_TYPES, DEFAULT_TYPE_LABEL, ZCreateBusinessContext } from "@/lib/schemas/contexts";
import { FeedbackMessage } from "@/components/ui/feedback";
import { FieldError, Label, errorAttrs } from "@/components/ui/field";
import { btn, field } from "@/components/ui/styles";
import { useMutation } from "@/components/ui/use-mutation";

type Values = { type: (typeof CONTEXT_TYPES)[number]; name: string; reference?: string };

// POST /business-contexts with the API's own schema.
export function NewContextForm() {
  const { submit, pending, feedback } = useMutation();
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
        const body = { type: v.type, name: v.name, ...(v.reference ? { reference: v.reference } : {}) };
        const r = await submit<{ name: string }>({ path: "/business-contexts", body, success: (c) => `“${c.name}” created.` });
        if (r.ok) reset({ type: v.type, name: "", reference: "" });
      })}
    >
      <div>
        <Label htmlFor="ctx-type">Type</Label>
        <select id="ctx-type" {...register("type")} className={field.input}>
          {CONTEXT_TYPES.map((t) => (
            <option key={t} value={t}>
              {DEFAULT_TYPE_LABEL[t]}
            </option>
          ))}
        </select>
      </div>
      <div>
        <Label htmlFor="ctx-name">Name</Label>
        <input id="ctx-name" {...register("name")} {...errorAttrs("ctx-name-error", formState.errors.name?.message)} className={field.input} />
        <FieldError id="ctx-name-error" message={formState.errors.name?.type === "too_small" ? "Enter a name." : formState.errors.name?.message} />
      </div>
      <div>
        <Label htmlFor="ctx-reference">Reference</Label>
        <input id="ctx-reference" {...register("reference")} className={field.input} placeholder="e.g. PRJ-2026-014" />
      </div>
      <button type="submit" className={`${btn.primary} sm:mt-6`} disabled={pending}>
        Create
      </button>
      <FeedbackMessage feedback={feedback} className="sm:col-span-4" />
    </form>
  );
}
