"use client";

import { useEffect, useState } from "react";
import { apiCall } from "@/lib/client/api";
import { describeApiError } from "@/lib/client/errors";
import { CopyButton, copyText } from "@/components/ui/copy-button";
import { ConfirmPanel } from "@/components/ui/confirm";
import { btn, field } from "@/components/ui/styles";
import { Label } from "@/components/ui/field";
import { FeedbackMessage, type Feedback } from "@/components/ui/feedback";
import { useObligation, useObligationMutation } from "@/components/obligations/obligation-context";
import { takeNewLink } from "@/components/obligations/new-link-store";

type Props = {
  status: string;
  revoked: boolean;
  expired: boolean;
  expiresLabel: string;
  counterpartyEmail: string;
};

// The hosted link of the obligation: copy it (fetched on demand, never part of the page's
// HTML), mark it sent, revoke it, reissue it. A fresh link (just registered or reissued)
// is shown once with a copy button.
export function LinkPanel({ status, revoked, expired, expiresLabel, counterpartyEmail }: Props) {
  const { obligationId, canWrite } = useObligation();
  const { run, pending, feedback, setFeedback } = useObligationMutation();
  const [fresh, setFresh] = useState<{ url: string; why: "registered" | "reissued" } | null>(null);
  const [confirmRevoke, setConfirmRevoke] = useState(false);
  const [copyFeedback, setCopyFeedback] = useState<Feedback>(null);
  const [revealed, setRevealed] = useState<string | null>(null);

  useEffect(() => {
    const e = takeNewLink(obligationId);
    if (e) setFresh({ url: e.hostedUrl, why: "registered" });
  }, [obligationId]);

  const usable = !revoked && !expired;

  async function copyLink() {
    setCopyFeedback(null);
    const r = await apiCall<{ hosted_url: string }>("GET", `/obligations/${obligationId}/payment-request`);
    if (!r.ok) {
      setCopyFeedback({ kind: "error", text: describeApiError(r.error) });
      return;
    }
    setRevealed(r.data.hosted_url);
    const ok = await copyText(r.data.hosted_url);
    setCopyFeedback(
      ok
        ? { kind: "success", text: "Link copied. Paste it into your own message to the recipient." }
        : { kind: "error", text: "Copy it from the field below." },
    );
  }

  return (
    <div className="space-y-3">
      {fresh && (
        <div role="status" className="space-y-2 rounded-lg border border-emerald-200 bg-emerald-50 p-3">
          <p className="text-sm font-medium text-emerald-900">
            {fresh.why === "registered" ? "Obligation registered." : "New link issued; the previous link no longer works."} Send this link to{" "}
            {counterpartyEmail || "your counterparty"} in your own message.
          </p>
          <div className="flex flex-col gap-2 sm:flex-row">
            <label htmlFor="fresh-link" className="sr-only">
              Link for the recipient
            </label>
            <input id="fresh-link" readOnly value={fresh.url} className={`${field.input} mt-0 font-mono text-xs`} onFocus={(e) => e.currentTarget.select()} />
            <CopyButton text={fresh.url} label="Copy link" fallbackInputId="fresh-link" />
          </div>
          <p className="text-xs text-emerald-900">Anyone with this link can see and act on the obligation. Do not post it in shared channels.</p>
        </div>
      )}

      <p className="text-sm text-slate-700">
        {revoked ? (
          <span className="font-medium text-rose-800">Revoked — the recipient can no longer open it.</span>
        ) : expired ? (
          <span className="font-medium text-rose-800">Expired on {expiresLabel}.</span>
        ) : (
          <>
            <span className="font-medium text-emerald-800">Active</span> · expires {expiresLabel}
          </>
        )}
      </p>

      <div className="flex flex-wrap gap-2">
        {usable && canWrite && (
          <button type="button" className={btn.secondary} onClick={copyLink}>
            Copy link
          </button>
        )}
        {canWrite && status === "OBLIGATION_CAPTURED" && usable && (
          <button
            type="button"
            className={btn.primary}
            disabled={pending}
            onClick={() => run("/actions", (v) => ({ body: { action: "mark_sent", expected_version: v } }), "Marked as sent. Status: payment requested.")}
          >
            Mark as sent
          </button>
        )}
        {canWrite && !revoked && (
          <button type="button" className={btn.danger} disabled={pending} aria-expanded={confirmRevoke} onClick={() => setConfirmRevoke(true)}>
            Revoke link
          </button>
        )}
        {canWrite && status !== "RECONCILED" && (
          <button
            type="button"
            className={btn.secondary}
            disabled={pending}
            onClick={async () => {
              setFresh(null);
              const r = await run("/actions", (v) => ({ body: { action: "reissue_link", expected_version: v } }), "A new link was issued.");
              if (r.ok && r.data.payment_request) {
                setFeedback(null);
                setRevealed(null);
                setFresh({ url: r.data.payment_request.hosted_url, why: "reissued" });
              }
            }}
          >
            Reissue link
          </button>
        )}
      </div>

      {confirmRevoke && (
        <ConfirmPanel
          tone="danger"
          label="Confirm revoking the link"
          question="Revoke the link? The recipient loses access at once. You can issue a new link later."
          confirmText="Yes, revoke"
          pending={pending}
          onCancel={() => setConfirmRevoke(false)}
          onConfirm={async () => {
            await run("/actions", (v) => ({ body: { action: "revoke_link", expected_version: v } }), "The link was revoked.");
            setConfirmRevoke(false);
            setFresh(null);
            setRevealed(null);
          }}
        />
      )}

      {revealed && !fresh && (
        <div>
          <Label htmlFor="hosted-link">Link for the recipient</Label>
          <input id="hosted-link" readOnly value={revealed} className={`${field.input} font-mono text-xs`} onFocus={(e) => e.currentTarget.select()} />
        </div>
      )}
      {!canWrite && usable && (
        <p className="text-sm text-slate-600">Only members who can change obligations can copy the link: it lets anyone act as the payer.</p>
      )}
      <FeedbackMessage feedback={copyFeedback} />
      <FeedbackMessage feedback={feedback} />
    </div>
  );
}
