"use client";

import { useFieldArray } from "react-hook-form";
import { emptyCondition, keyFromLabel } from "@/lib/dashboard/obligation-form";
import { btn } from "@/components/ui/styles";
import { FormSection, type RegistrationForm, TextField } from "@/components/obligations/registration/fields";

// Things that must happen before (part of) the amount becomes payable; a key is made from
// the label when left empty.
export function ConditionsSection({ form }: { form: RegistrationForm }) {
  const conditions = useFieldArray({ control: form.control, name: "conditions" });
  const { getValues, setValue } = form;
  return (
    <FormSection
      id="sec-conditions"
      title="Conditions"
      optional
      className="space-y-3"
      description="Things that must happen before (part of) the amount becomes payable, e.g. “Site acceptance”."
    >
      {conditions.fields.map((f, i) => (
        <div key={f.id} className="grid gap-3 rounded-lg border border-slate-200 p-3 sm:grid-cols-[1fr_12rem_auto] sm:items-start">
          <TextField
            form={form}
            label={`Condition ${i + 1}`}
            name={`conditions.${i}.label`}
            required
            onBlur={() => {
              if (!getValues(`conditions.${i}.key`)) setValue(`conditions.${i}.key`, keyFromLabel(getValues(`conditions.${i}.label`)));
            }}
          />
          <TextField form={form} label="Key" name={`conditions.${i}.key`} hint="Made from the label if empty." />
          <button type="button" className={`${btn.small} sm:mt-6`} onClick={() => conditions.remove(i)}>
            Remove<span className="sr-only"> condition {i + 1}</span>
          </button>
        </div>
      ))}
      <button type="button" className={btn.secondary} onClick={() => conditions.append(emptyCondition())}>
        Add condition
      </button>
    </FormSection>
  );
}
