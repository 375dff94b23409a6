"use client";

import { useState } from "react";
import { Label, FieldError, errorAttrs } from "@/components/ui/field";
import { btn, field } from "@/components/ui/styles";
import { FeedbackMessage } from "@/components/ui/feedback";
import { useObligationMutation } from "@/components/obligations/obligation-context";

// resolve_dispute: accept or reject the payer's open dispute, with an answer the payer sees.
export function ResolveDisputeForm() {
  const { run, pending, feedback, setFeedback } = useObligationMutation();
  const [outcome, setOutcome] = useState<"" | "accepted" | "rejected">("");
  const [message, setMessage] = useState("");
  const [errors, setErrors] = useState<{ outcome?: string; message?: string }>({});
  return (
    <form
      className="space-y-3"
      noValidate
      onSubmit={async (e) => {
        e.preventDefault();
        const errs: typeof errors = {};
        if (!outcome) errs.outcome = "Choose whether you accept or reject the dispute.";
        if (!message.trim()) errs.message = "Write the answer the payer will see.";
        else if (message.length > 4000) errs.message = "Use at most 4000 characters.";
        setErrors(errs);
        if (errs.outcome || errs.message) {
          setFeedback(null);
          return;
        }
        const r = await run(
          "/actions",
          (v) => ({ body: { action: "resolve_dispute", expected_version: v, outcome, message: message.trim() } }),
          outcome === "accepted" ? "Dispute accepted. The payer sees your answer." : "Dispute rejected. The payer sees your answer.",
        );
        if (r.ok) {
          setOutcome("");
          setMessage("");
        }
      }}
    >
      <fieldset aria-describedby={errors.outcome ? "resolve-outcome-error" : undefined}>
        <legend className={field.label}>Your decision</legend>
        <div className="mt-1 flex flex-wrap gap-4 text-sm">
          {(["accepted", "rejected"] as const).map((o) => (
            <label key={o} className="inline-flex min-h-9 items-center gap-2">
              <input type="radio" name="outcome" value={o} checked={outcome === o} onChange={() => setOutcome(o)} />
              {o === "accepted" ? "Accept (the payer is right)" : "Reject (the claim stands)"}
            </label>
          ))}
        </div>
        <FieldError id="resolve-outcome-error" message={errors.outcome} />
      </fieldset>
      <div>
        <Label htmlFor="resolve-message">Answer to the payer</Label>
        <textarea
          id="resolve-message"
          rows={3}
          maxLength={4000}
          value={message}
          onChange={(e) => setMessage(e.target.value)}
          {...errorAttrs("resolve-message-error", errors.message)}
          className={field.input}
        />
        <FieldError id="resolve-message-error" message={errors.message} />
      </div>
      <button type="submit" className={btn.primary} disabled={pending}>
        Resolve dispute
      </button>
      <FeedbackMessage feedback={feedback} />
    </form>
  );
}
