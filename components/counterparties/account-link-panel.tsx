"use client";

import { useState } from "react";
import { useMutation } from "@/components/ui/use-mutation";
import { FeedbackMessage } from "@/components/ui/feedback";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { OnceLink } from "@/components/settings/once-link";
import { btn } from "@/components/ui/styles";
import { formatDateTime } from "@/lib/format/dates";

type Made = { id: string; hosted_url: string; expires_at: string };

// Make, reissue or revoke a counterparty's account link; a new link is shown once with a
// copy button (only its hash is kept).
export function AccountLinkPanel({
  counterpartyId,
  state,
}: {
  counterpartyId: string;
  state: { expiresAt: string; revoked: boolean; createdAt: string } | null;
}) {
  const { submit, pending, feedback } = useMutation();
  const [made, setMade] = useState<Made | null>(null);
  const path = `/counterparties/${counterpartyId}/account-link`;
  const live = state !== null && !state.revoked && Date.parse(state.expiresAt) > Date.now();
  const make = async () => {
    const r = await submit<Made>({ path, body: {} });
    if (r.ok) setMade(r.data);
  };
  return (
    <div className="space-y-3">
      <p className="text-sm text-slate-700">
        {state === null
          ? "No account link yet."
          : live
            ? `A link is live until ${formatDateTime(state.expiresAt)}.`
            : state.revoked
              ? "The last link was revoked."
              : "The last link has expired."}
      </p>
      {made && (
        <OnceLink
          id="account-link-url"
          title="The account link"
          url={made.hosted_url}
          expiresAt={made.expires_at}
          note="Send it to the payer: it opens every open obligation of this counterparty."
        />
      )}
      <div className="flex flex-wrap gap-2">
        <button type="button" className={btn.primary} disabled={pending} onClick={make}>
          {live ? "Reissue link" : "Make account link"}
        </button>
        {live && (
          <ConfirmButton
            label="Revoke link"
            title="Revoke the account link?"
            body="The payer can no longer open the account with it. The links of the single obligations keep working."
            confirmLabel="Revoke"
            onConfirm={async () => {
              const r = await submit({ path, method: "DELETE", success: "The account link was revoked." });
              if (r.ok) setMade(null);
              return r.ok ? null : "The link could not be revoked; reload and try again.";
            }}
          />
        )}
      </div>
      <FeedbackMessage feedback={feedback} />
    </div>
  );
}
