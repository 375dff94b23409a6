"use client";

import { useId, useState } from "react";
import { CSV_DATE_FORMATS, ZCsvMapping } from "@/lib/bank-statements/csv-mapping";
import { FieldError, Hint, Label, errorAttrs } from "@/components/ui/field";
import { btn, field } from "@/components/ui/styles";

type Key = "date" | "amount" | "debit" | "credit" | "currency" | "fixed_currency" | "counterparty_name" | "remittance" | "bank_reference";

const COLUMNS: { key: Key; label: string; hint?: string }[] = [
  { key: "date", label: "Booking date column" },
  { key: "amount", label: "Amount column", hint: "Signed: negative is money paid out. Leave empty when the file has debit and credit columns." },
  { key: "debit", label: "Debit column (money out)" },
  { key: "credit", label: "Credit column (money in)" },
  { key: "currency", label: "Currency column" },
  { key: "fixed_currency", label: "Currency of every row", hint: "When the file has no currency column, e.g. EUR." },
  { key: "counterparty_name", label: "Counterparty name column" },
  { key: "remittance", label: "Remittance text column" },
  { key: "bank_reference", label: "Bank reference column" },
];

// A column is named by its header text, or by its 0-based position when only digits are typed.
const column = (v: string) => (/^\d+$/.test(v.trim()) ? Number(v.trim()) : v.trim());

// The csv_mapping form field of POST /bank-statements, built from what a person types and
// checked with the API's own schema before it is sent.
export function CsvMappingForm({ disabled, onSubmit }: { disabled?: boolean; onSubmit: (mappingJson: string) => void }) {
  const id = useId();
  const [v, setV] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const set = (k: string, value: string) => setV((cur) => ({ ...cur, [k]: value }));

  return (
    <form
      noValidate
      aria-label="CSV column mapping"
      className="mt-3 grid gap-3 sm:grid-cols-2"
      onSubmit={(e) => {
        e.preventDefault();
        const m: Record<string, unknown> = {};
        for (const c of COLUMNS) {
          const value = (v[c.key] ?? "").trim();
          if (value) m[c.key] = c.key === "fixed_currency" ? value.toUpperCase() : column(value);
        }
        if (v.decimal_separator) m.decimal_separator = v.decimal_separator;
        if (v.date_format) m.date_format = v.date_format;
        if (v.header_row?.trim()) m.header_row = Number(v.header_row.trim());
        if (m.date === undefined) return setErrors({ date: "Name the booking date column." });
        const r = ZCsvMapping.safeParse(m);
        if (!r.success) {
          const errs: Record<string, string> = {};
          for (const i of r.error.issues) errs[String(i.path[0] ?? "date")] ??= i.message;
          setErrors(errs);
          return;
        }
        setErrors({});
        onSubmit(JSON.stringify(r.data));
      }}
    >
      {COLUMNS.map((c) => (
        <div key={c.key}>
          <Label htmlFor={`${id}-${c.key}`}>{c.label}</Label>
          <input
            id={`${id}-${c.key}`}
            className={field.input}
            autoComplete="off"
            value={v[c.key] ?? ""}
            onChange={(e) => set(c.key, e.target.value)}
            {...errorAttrs(`${id}-${c.key}-error`, errors[c.key], c.hint ? `${id}-${c.key}-hint` : undefined)}
          />
          {c.hint && <Hint id={`${id}-${c.key}-hint`}>{c.hint}</Hint>}
          <FieldError id={`${id}-${c.key}-error`} message={errors[c.key]} />
        </div>
      ))}
      <div>
        <Label htmlFor={`${id}-decimal`}>Decimal separator</Label>
        <select id={`${id}-decimal`} className={field.input} value={v.decimal_separator ?? ""} onChange={(e) => set("decimal_separator", e.target.value)}>
          <option value="">Guess from the amounts</option>
          <option value=".">Dot (1234.50)</option>
          <option value=",">Comma (1234,50)</option>
        </select>
      </div>
      <div>
        <Label htmlFor={`${id}-dates`}>Date format</Label>
        <select id={`${id}-dates`} className={field.input} value={v.date_format ?? ""} onChange={(e) => set("date_format", e.target.value)}>
          <option value="">Guess from the dates</option>
          {CSV_DATE_FORMATS.map((f) => (
            <option key={f} value={f}>
              {f}
            </option>
          ))}
        </select>
      </div>
      <div>
        <Label htmlFor={`${id}-header`}>Header row (line number)</Label>
        <input
          id={`${id}-header`}
          className={field.input}
          inputMode="numeric"
          autoComplete="off"
          value={v.header_row ?? ""}
          onChange={(e) => set("header_row", e.target.value)}
          {...errorAttrs(`${id}-header-error`, errors.header_row, `${id}-header-hint`)}
        />
        <Hint id={`${id}-header-hint`}>Empty: found automatically. 0: the file has no header row.</Hint>
        <FieldError id={`${id}-header-error`} message={errors.header_row} />
      </div>
      <div className="sm:col-span-2">
        <button type="submit" className={btn.primary} disabled={disabled}>
          Import with this mapping
        </button>
      </div>
    </form>
  );
}
