"use client";

import { FormSection, type RegistrationForm } from "@/components/obligations/registration/fields";

export type ContextOption = { id: string; name: string; type_label: string; reference: string };

// The company, project or order the obligation belongs to (shown only when there are any).
export function ContextsSection({ form, contexts }: { form: RegistrationForm; contexts: ContextOption[] }) {
  if (contexts.length === 0) return null;
  return (
    <FormSection
      id="sec-business-contexts"
      title="Business contexts"
      optional
      className="space-y-3"
      description="The company, project or order this belongs to."
    >
      <div className="grid max-h-64 gap-2 overflow-y-auto sm:grid-cols-2">
        {contexts.map((c) => (
          <label key={c.id} className="flex items-start gap-2 text-sm">
            <input type="checkbox" value={c.id} {...form.register("context_ids")} className="mt-0.5 size-4" />
            <span>
              {c.name}{" "}
              <span className="text-slate-600">
                · {c.type_label}
                {c.reference ? ` · ${c.reference}` : ""}
              </span>
            </span>
          </label>
        ))}
      </div>
    </FormSection>
  );
}
