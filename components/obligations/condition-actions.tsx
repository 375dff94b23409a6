"use client";

import { useState } from "react";
import { ZSatisfyCondition } from "@/lib/schemas/obligations";
import { btn, field } from "@/components/ui/styles";
import { FeedbackMessage } from "@/components/ui/feedback";
import { useObligationMutation } from "@/components/obligations/obligation-context";
import { Label, FormError } from "@/components/ui/field";
import { ConfirmPanel } from "@/components/ui/confirm";

// Satisfy (with the evidence you accepted) or waive a waiting condition; either
// recalculates the payable terms. Stays mounted after the change so its outcome is still
// announced once the condition is no longer waiting.
export function ConditionActions({ conditionId, label, today, waiting }: { conditionId: string; label: string; today: string; waiting: boolean }) {
  const { run, pending, feedback } = useObligationMutation();
  const [mode, setMode] = useState<"idle" | "satisfy" | "waive">("idle");
  const [satisfiedOn, setSatisfiedOn] = useState(today);
  const [evidence, setEvidence] = useState("");
  const [source, setSource] = useState("");
  const [error, setError] = useState<string | null>(null);
  const id = conditionId.slice(0, 8);

  return (
    <div className="space-y-2">
      {waiting && mode === "idle" && (
        <div className="flex flex-wrap gap-2">
          <button type="button" className={btn.small} onClick={() => setMode("satisfy")}>
            Mark satisfied<span className="sr-only">: {label}</span>
          </button>
          <button type="button" className={btn.small} onClick={() => setMode("waive")}>
            Waive<span className="sr-only">: {label}</span>
          </button>
        </div>
      )}
      {waiting && mode === "satisfy" && (
        <form
          noValidate
          className="space-y-2 rounded-lg border border-slate-200 bg-slate-50 p-3"
          aria-label={`Satisfy ${label}`}
          onSubmit={async (e) => {
            e.preventDefault();
            const body = {
              expected_version: 1,
              ...(satisfiedOn ? { satisfied_on: satisfiedOn } : {}),
              ...(evidence.trim() ? { evidence_reference: evidence.trim() } : {}),
              ...(source.trim() ? { source: source.trim() } : {}),
            };
            const checked = ZSatisfyCondition.safeParse(body);
            if (!checked.success) {
              setError(checked.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "));
              return;
            }
            setError(null);
            const r = await run(
              `/conditions/${conditionId}/satisfy`,
              (v) => ({ body: { ...checked.data, expected_version: v } }),
              `“${label}” is satisfied; payable amounts were recalculated.`,
            );
            if (r.ok) setMode("idle");
          }}
        >
          <div className="grid gap-2 sm:grid-cols-3">
            <div>
              <Label htmlFor={`sat-on-${id}`}>Satisfied on</Label>
              <input id={`sat-on-${id}`} type="date" value={satisfiedOn} onChange={(e) => setSatisfiedOn(e.target.value)} className={field.input} />
            </div>
            <div>
              <Label htmlFor={`sat-ev-${id}`}>Evidence reference</Label>
              <input
                id={`sat-ev-${id}`}
                value={evidence}
                maxLength={500}
                onChange={(e) => setEvidence(e.target.value)}
                className={field.input}
                placeholder="e.g. ACCEPT-2026-117"
              />
            </div>
            <div>
              <Label htmlFor={`sat-src-${id}`}>Source</Label>
              <input
                id={`sat-src-${id}`}
                value={source}
                maxLength={500}
                onChange={(e) => setSource(e.target.value)}
                className={field.input}
                placeholder="e.g. signed report"
              />
            </div>
          </div>
          <FormError message={error} />
          <div className="flex gap-2">
            <button type="submit" className={btn.primary} disabled={pending}>
              Confirm satisfied
            </button>
            <button type="button" className={btn.secondary} onClick={() => setMode("idle")}>
              Cancel
            </button>
          </div>
        </form>
      )}
      {waiting && mode === "waive" && (
        <ConfirmPanel
          label={`Waive ${label}`}
          question={`Waive “${label}”? It counts as met from today and the terms that wait on it become payable.`}
          confirmText="Yes, waive"
          pending={pending}
          onCancel={() => setMode("idle")}
          onConfirm={async () => {
            const r = await run(
              "/actions",
              (v) => ({ body: { action: "waive_condition", expected_version: v, condition_id: conditionId } }),
              `“${label}” was waived.`,
            );
            if (r.ok) setMode("idle");
          }}
        />
      )}
      <FeedbackMessage feedback={feedback} />
    </div>
  );
}
