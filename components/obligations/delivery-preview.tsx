"use client";

import { useState } from "react";
import { apiCall } from "@/lib/client/api";
import { describeApiError } from "@/lib/client/errors";
import { CopyButton } from "@/components/ui/copy-button";
import { btn } from "@/components/ui/styles";
import { FeedbackMessage, type Feedback } from "@/components/ui/feedback";
import { useObligation } from "@/components/obligations/obligation-context";

type Draft = { to: string; subject: string; text: string; html: string; hosted_url: string };

// The delivery draft of an invoice (GET /invoices/{id}/delivery): the text of your own
// email with the hosted link. Preparing it sends nothing and records nothing.
export function DeliveryPreview() {
  const { obligationId } = useObligation();
  const [draft, setDraft] = useState<Draft | null>(null);
  const [feedback, setFeedback] = useState<Feedback>(null);
  const [loading, setLoading] = useState(false);
  return (
    <div className="space-y-3">
      {!draft && (
        <button
          type="button"
          className={btn.secondary}
          disabled={loading}
          onClick={async () => {
            setLoading(true);
            setFeedback(null);
            const r = await apiCall<Draft>("GET", `/invoices/${obligationId}/delivery`);
            setLoading(false);
            if (r.ok) setDraft(r.data);
            else setFeedback({ kind: "error", text: describeApiError(r.error) });
          }}
        >
          {loading ? "Preparing…" : "Preview email"}
        </button>
      )}
      {draft && (
        <div className="space-y-2">
          <dl className="grid grid-cols-[5rem_1fr] gap-x-2 gap-y-1 text-sm">
            <dt className="text-slate-600">To</dt>
            <dd className="break-all">{draft.to || <span className="text-slate-600">No email address on file</span>}</dd>
            <dt className="text-slate-600">Subject</dt>
            <dd>{draft.subject}</dd>
          </dl>
          <label htmlFor="draft-text" className="sr-only">
            Email text
          </label>
          <textarea
            id="draft-text"
            readOnly
            rows={12}
            value={draft.text}
            className="block w-full rounded-md border border-slate-300 bg-slate-50 p-3 font-mono text-xs"
          />
          <div className="flex flex-wrap gap-2">
            <CopyButton text={draft.text} label="Copy text" fallbackInputId="draft-text" />
            <CopyButton text={draft.subject} label="Copy subject" />
            <button type="button" className={btn.secondary} onClick={() => setDraft(null)}>
              Close
            </button>
          </div>
          <p className="text-xs text-slate-600">Nothing was sent. After you send it yourself, use “Mark as sent”.</p>
        </div>
      )}
      <FeedbackMessage feedback={feedback} />
    </div>
  );
}
