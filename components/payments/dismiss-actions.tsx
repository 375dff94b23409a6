"use client";

import { useId, useState } from "react";
import { describeApiError } from "@/lib/client/errors";
import { DISMISSAL_LABELS } from "@/lib/dashboard/format";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { FeedbackMessage } from "@/components/ui/feedback";
import { Label } from "@/components/ui/field";
import { btn, field } from "@/components/ui/styles";
import { useMutation } from "@/components/ui/use-mutation";

// POST /payments/{id}/dismiss: a bank line that is not a receivable leaves the queue.
export function DismissPaymentButton({ paymentId, who }: { paymentId: string; who: string }) {
  const { submit } = useMutation();
  const id = useId();
  const [reason, setReason] = useState("not_receivable");
  const [note, setNote] = useState("");
  return (
    <ConfirmButton
      label={
        <>
          Not a receivable<span className="sr-only"> ({who})</span>
        </>
      }
      triggerClassName={btn.secondary}
      title="Set this payment aside?"
      confirmLabel="Set aside"
      body={
        <div className="space-y-3">
          <p>
            The payment leaves the list of payments to allocate and gets no suggestions. Nothing is allocated or changed otherwise; you can restore it from its
            page.
          </p>
          <div>
            <Label htmlFor={`${id}-reason`}>What is it?</Label>
            <select id={`${id}-reason`} value={reason} onChange={(e) => setReason(e.target.value)} className={field.input}>
              {Object.entries(DISMISSAL_LABELS).map(([k, l]) => (
                <option key={k} value={k}>
                  {l}
                </option>
              ))}
            </select>
          </div>
          <div>
            <Label htmlFor={`${id}-note`}>Note on setting it aside (optional)</Label>
            <input id={`${id}-note`} value={note} onChange={(e) => setNote(e.target.value)} className={field.input} />
          </div>
        </div>
      }
      onConfirm={async () => {
        const r = await submit({ path: `/payments/${paymentId}/dismiss`, body: { reason, ...(note.trim() ? { note: note.trim() } : {}) } });
        return r.ok ? null : describeApiError(r.error);
      }}
    />
  );
}

// POST /payments/{id}/restore: back in the queue of payments to allocate.
export function RestorePaymentButton({ paymentId }: { paymentId: string }) {
  const { submit, pending, feedback } = useMutation();
  return (
    <div className="space-y-2">
      <button
        type="button"
        className={btn.secondary}
        disabled={pending}
        onClick={() => submit({ path: `/payments/${paymentId}/restore`, body: {}, success: "Restored: the payment is back among those to allocate." })}
      >
        {pending ? "Restoring…" : "Restore"}
      </button>
      <FeedbackMessage feedback={feedback} />
    </div>
  );
}
