"use client";

import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { ZCreateContextRelationship, type TCreateContextRelationship } from "@/lib/schemas/contexts";
import { FeedbackMessage } from "@/components/ui/feedback";
import { FieldError, Label, errorAttrs, ChoiceOptions } from "@/components/ui/field";
import { btn, field } from "@/components/ui/styles";
import { useMutation } from "@/components/ui/use-mutation";

// POST /business-contexts/{id}/relationships: relate this context to another one.
export function NewRelationshipForm({ contextId, options }: { contextId: string; options: { id: string; label: string }[] }) {
  const { submit, pending, feedback } = useMutation();
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
        const r = await submit({ path: `/business-contexts/${contextId}/relationships`, body, success: "Relationship added." });
        if (r.ok) reset({ related_context_id: "", relationship_type: "" });
      })}
    >
      <div>
        <Label htmlFor="rel-context">Related context</Label>
        <select
          id="rel-context"
          {...register("related_context_id")}
          {...errorAttrs("rel-context-error", formState.errors.related_context_id?.message)}
          className={field.input}
        >
          <ChoiceOptions options={options} />
        </select>
        <FieldError id="rel-context-error" message={formState.errors.related_context_id?.message} />
      </div>
      <div>
        <Label htmlFor="rel-type">Relationship</Label>
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
          message={
            formState.errors.relationship_type?.type === "too_small" ? "Name the relationship, e.g. belongs_to." : formState.errors.relationship_type?.message
          }
        />
      </div>
      <button type="submit" className={`${btn.secondary} sm:mt-6`} disabled={pending}>
        Add
      </button>
      <FeedbackMessage feedback={feedback} className="sm:col-span-3" />
    </form>
  );
}
