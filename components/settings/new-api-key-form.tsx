"use client";

import { useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { SCOPES } from "@/lib/auth/permissions";
import { ZApiKeyInput, type TApiKeyCreated, type TApiKeyInput } from "@/lib/schemas/administration";
import { CopyButton } from "@/components/ui/copy-button";
import { Label, FieldError, errorAttrs } from "@/components/ui/field";
import { FeedbackMessage } from "@/components/ui/feedback";
import { useMutation } from "@/components/ui/use-mutation";
import { btn, field } from "@/components/ui/styles";
import { describeAdminError } from "@/components/settings/messages";

// POST /api-keys. The key is in the answer only: it is shown here once, with a copy button.
export function NewApiKeyForm() {
  const { submit, feedback } = useMutation();
  const [created, setCreated] = useState<TApiKeyCreated | null>(null);
  const { register, handleSubmit, formState, reset } = useForm<TApiKeyInput>({
    resolver: zodResolver(ZApiKeyInput),
    defaultValues: { name: "", scopes: [] },
  });
  return (
    <div className="space-y-4">
      {created && (
        <div role="status" className="rounded-md border border-emerald-200 bg-emerald-50 p-3 text-sm text-emerald-950">
          <p className="font-medium">API key “{created.name}” created. Copy it now: it is not shown again.</p>
          <div className="mt-2 flex flex-col gap-2 sm:flex-row">
            <label htmlFor="new-api-key" className="sr-only">
              The new API key
            </label>
            <input
              id="new-api-key"
              readOnly
              value={created.key}
              className={`${field.input} mt-0 font-mono text-xs`}
              onFocus={(e) => e.currentTarget.select()}
            />
            <CopyButton text={created.key} label="Copy key" fallbackInputId="new-api-key" />
          </div>
        </div>
      )}
      <form
        noValidate
        aria-label="Create an API key"
        className="space-y-3"
        onSubmit={handleSubmit(async (body) => {
          setCreated(null);
          const r = await submit<TApiKeyCreated>({ path: "/api-keys", body, describe: describeAdminError });
          if (!r.ok) return;
          setCreated(r.data);
          reset({ name: "", scopes: [] });
        })}
      >
        <div>
          <Label htmlFor="key-name">Name</Label>
          <input
            id="key-name"
            autoComplete="off"
            placeholder="Accounting export"
            {...register("name")}
            {...errorAttrs("key-name-error", formState.errors.name?.message)}
            className={field.input}
          />
          <FieldError id="key-name-error" message={formState.errors.name?.message} />
        </div>
        <fieldset aria-describedby={formState.errors.scopes ? "key-scopes-error" : undefined}>
          <legend className={field.label}>Scopes</legend>
          <div className="mt-1 grid grid-cols-1 gap-1 sm:grid-cols-2">
            {SCOPES.map((s) => (
              <label key={s} className="flex items-center gap-2 text-sm text-slate-800">
                <input type="checkbox" value={s} {...register("scopes")} className="h-4 w-4" />
                <span className="font-mono">{s}</span>
              </label>
            ))}
          </div>
          <FieldError id="key-scopes-error" message={formState.errors.scopes?.message ?? formState.errors.scopes?.root?.message} />
        </fieldset>
        <FeedbackMessage feedback={feedback} />
        <button type="submit" className={btn.primary} disabled={formState.isSubmitting}>
          {formState.isSubmitting ? "Creating…" : "Create API key"}
        </button>
      </form>
    </div>
  );
}
