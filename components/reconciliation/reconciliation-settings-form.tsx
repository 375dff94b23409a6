"use client";

import { useState } from "react";
import type { TReconciliationSettings, TReconciliationSettingsInput } from "@/lib/schemas/reconciliation";
import { settingsInWords } from "@/lib/dashboard/reconciliation-settings-words";
import { DecimalField, Label } from "@/components/ui/field";
import { useMutation } from "@/components/ui/use-mutation";
import { SettingsSave } from "@/components/settings/settings-save";
import { field } from "@/components/ui/styles";

const AMOUNT = /^\d{1,15}(?:[.,]\d{1,2})?$/;
const PERCENT = /^\d{1,3}(?:[.,]\d{1,2})?$/;

// "25.00" -> "2500" (hundredths, as minor units of a two-decimal currency).
function hundredths(s: string): string {
  const [whole, frac = ""] = s.trim().replace(",", ".").split(".");
  return (BigInt(whole) * 100n + BigInt(frac.padEnd(2, "0") || "0")).toString();
}
const decimal = (minor: string) => `${BigInt(minor) / 100n}.${(BigInt(minor) % 100n).toString().padStart(2, "0")}`;

// PUT /reconciliation-settings: automatic allocation and the short-payment tolerance, with
// what they will do in words, updated as the choices change.
export function ReconciliationSettingsForm({ current }: { current: TReconciliationSettings }) {
  const { submit, pending, feedback } = useMutation();
  const [mode, setMode] = useState(current.auto_allocate);
  const [tolerant, setTolerant] = useState(current.tolerance !== null);
  const [amount, setAmount] = useState(current.tolerance ? decimal(current.tolerance.max_minor) : "25.00");
  const [percent, setPercent] = useState(current.tolerance ? String(current.tolerance.max_basis_points / 100) : "2");
  const [kind, setKind] = useState(current.tolerance?.kind ?? "bank_fee");
  const amountError = tolerant && !AMOUNT.test(amount.trim()) ? "Enter an amount like 25.00." : null;
  const percentError =
    tolerant && (!PERCENT.test(percent.trim()) || Number(percent.replace(",", ".")) > 100) ? "Enter a percentage from 0 to 100, like 2 or 2.5." : null;
  const body: TReconciliationSettingsInput | null =
    amountError || percentError
      ? null
      : {
          auto_allocate: mode,
          tolerance: tolerant ? { max_minor: hundredths(amount), max_basis_points: Number(hundredths(percent)), kind } : null,
        };
  const words = settingsInWords(body ?? { auto_allocate: mode, tolerance: null });
  return (
    <form
      noValidate
      aria-label="Reconciliation settings"
      className="space-y-4"
      onSubmit={async (e) => {
        e.preventDefault();
        if (!body) return;
        await submit({ method: "PUT", path: "/reconciliation-settings", body, success: "Saved. The next import follows these settings." });
      }}
    >
      <fieldset>
        <legend className={field.label}>Allocate without a person</legend>
        <div className="mt-2 space-y-2">
          <label className="flex items-start gap-2 text-sm">
            <input
              type="radio"
              name="auto_allocate"
              value="reference_only"
              checked={mode === "reference_only"}
              onChange={() => setMode("reference_only")}
              className="mt-1"
            />
            <span>Only with the payment reference (RF) of one open obligation</span>
          </label>
          <label className="flex items-start gap-2 text-sm">
            <input type="radio" name="auto_allocate" value="confident" checked={mode === "confident"} onChange={() => setMode("confident")} className="mt-1" />
            <span>Also with a whole invoice number or obligation reference and the exact amount due</span>
          </label>
        </div>
      </fieldset>
      <div>
        <label className="flex items-start gap-2 text-sm font-medium text-slate-800">
          <input type="checkbox" checked={tolerant} onChange={(e) => setTolerant(e.target.checked)} className="mt-1" />
          <span>Accept short payments within a tolerance</span>
        </label>
        {tolerant && (
          <div className="mt-3 grid gap-4 sm:grid-cols-3">
            <DecimalField id="tol-amount" label="Short by at most" value={amount} onChange={setAmount} error={amountError} hint="In the payment's currency." />
            <DecimalField id="tol-percent" label="and at most (%)" value={percent} onChange={setPercent} error={percentError} hint="Of what is owed." />
            <div>
              <Label htmlFor="tol-kind">Settle the rest as</Label>
              <select id="tol-kind" className={field.input} value={kind} onChange={(e) => setKind(e.target.value as "bank_fee" | "discount")}>
                <option value="bank_fee">Bank fee</option>
                <option value="discount">Early-payment discount</option>
              </select>
            </div>
          </div>
        )}
      </div>
      <SettingsSave words={words} feedback={feedback} pending={pending} ready={body !== null} label="Save settings" />
    </form>
  );
}
