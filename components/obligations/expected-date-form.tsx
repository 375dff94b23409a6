"use client";

import { useState } from "react";
import { ZDate } from "@/lib/schemas/common";
import { Label, FieldError, errorAttrs } from "@/components/ui/field";
import { btn, field } from "@/components/ui/styles";
import { FeedbackMessage } from "@/components/ui/feedback";
import { useObligationMutation } from "@/components/obligations/obligation-context";

// set_expected_payment_date: when you expect the money (your own planning date).
export function ExpectedDateForm({ current }: { current: string }) {
  const { run, pending, feedback, setFeedback } = useObligationMutation();
  const [value, setValue] = useState(current);
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      className="space-y-2"
      noValidate
      onSubmit={async (e) => {
        e.preventDefault();
        const parsed = ZDate.safeParse(value);
        if (!parsed.success) {
          setError("Choose a date.");
          setFeedback(null);
          return;
        }
        setError(null);
        await run(
          "/actions",
          (v) => ({ body: { action: "set_expected_payment_date", expected_version: v, expected_payment_date: parsed.data } }),
          "Expected payment date saved.",
        );
      }}
    >
      <Label htmlFor="expected-date">Set the expected payment date</Label>
      <div className="flex flex-wrap gap-2">
        <input
          id="expected-date"
          type="date"
          value={value}
          onChange={(e) => setValue(e.target.value)}
          {...errorAttrs("expected-date-error", error ?? undefined)}
          className={`${field.input} mt-0 w-auto`}
        />
        <button type="submit" className={btn.secondary} disabled={pending}>
          Save date
        </button>
      </div>
      <FieldError id="expected-date-error" message={error ?? undefined} />
      <FeedbackMessage feedback={feedback} />
    </form>
  );
}
