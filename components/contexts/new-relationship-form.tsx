"use client";

import { useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useRouter } from "next/navigation";
import { apiCall } from "@/lib/client/api";
import { describeApiError } from "@/lib/client/errors";
import { useSubmissionKey } from "@/lib/client/submission-key";
import { ZCreateContextRelationship, type TCreateContextRelationship } from "@/lib/schemas/contexts";
import { FieldError, errorAttrs } from "@/components/ui/field-error";
import { btn, field } from "@/components/ui/styles";

// POST /business-contexts/{id}/relationships: relate this context to another one.
export function NewRelationshipForm({ contextId, options }: { contextId: string; options: { id: string; label: string }[] }) {
  const router = useRouter();
  const keys = useSubmissionKey();
  const [message, setMessage] = useState<{ kind: "error" | "success"; text: string } | null>(null);
  const { register, handleSubmit, formState, reset } = useForm<TCreateContextRelationship>({
    resolver: zodResolver(ZCreateContextRelationship, {
      error: (iss) =>
        iss.path?.[0] === "related_context_id" ? "Choose a context." : iss.code === "too_small" ? "Name the relationship, e.g. belongs_to." : undefined,
    }),
    defaultValues: { related_context_id: "", relationship_type: "" },
  });
  if (options.length === 0) return <p className="text-sm text-slate-600">Create another context to relate this one to.</p>;
  return (
    <form
      noValidate
      aria-label="Add a relationship"
      className="grid gap-3 sm:grid-cols-[1fr_12rem_auto] sm:items-start"
      onSubmit={handleSubmit(async (body) => {
        setMessage(null);
        const r = await apiCall("POST", `/business-contexts/${contextId}/relationships`, { body, idempotencyKey: keys.keyFor(body) });
        if (r.ok || r.error.code !== "network_error") keys.settle();
        if (!r.ok) return setMessage({ kind: "error", text: describeApiError(r.error) });
        reset({ related_context_id: "", relationship_type: "" });
        setMessage({ kind: "success", text: "Relationship added." });
        router.refresh();
      })}
    >
      <div>
        <label htmlFor="rel-context" className={field.label}>
          Related context
        </label>
        <select
          id="rel-context"
          {...register("related_context_id")}
          {...errorAttrs("rel-context-error", formState.errors.related_context_id?.message)}
          className={field.input}
        >
          <option value="">Choose…</option>
          {options.map((o) => (
            <option key={o.id} value={o.id}>
              {o.label}
            </option>
          ))}
        </select>
        <FieldError id="rel-context-error" message={formState.errors.related_context_id?.message} />
      </div>
      <div>
        <label htmlFor="rel-type" className={field.label}>
          Relationship
        </label>
        <input
          id="rel-type"
          {...register("relationship_type")}
          list="rel-type-suggestions"
          {...errorAttrs("rel-type-error", formState.errors.relationship_type?.message)}
          className={field.input}
          placeholder="belongs_to"
        />
        <datalist id="rel-type-suggestions">
          <option value="belongs_to" />
          <option value="parent_of" />
          <option value="supplies" />
          <option value="related" />
        </datalist>
        <FieldError
          id="rel-type-error"
          message={formState.errors.relationship_type?.type === "too_small" ? "Name the relationship, e.g. belongs_to." : formState.errors.relationship_type?.message}
        />
      </div>
      <button type="submit" className={`${btn.secondary} sm:mt-6`} disabled={formState.isSubmitting}>
        Add
      </button>
      {message && (
        <p role={message.kind === "error" ? "alert" : "status"} className={`sm:col-span-3 text-sm ${message.kind === "error" ? "text-rose-700" : "text-emerald-800"}`}>
          {message.text}
        </p>
      )}
    </form>
  );
}
