"use client";

import { useState } from "react";
import type { TMemberInvited } from "@/lib/schemas/administration";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { FeedbackMessage } from "@/components/ui/feedback";
import { useMutation } from "@/components/ui/use-mutation";
import { btn } from "@/components/ui/styles";
import { describeAdminError } from "@/components/settings/messages";
import { OnceLink } from "@/components/settings/once-link";

// A pending invitation: a new link (the earlier one stops working) or withdraw it.
export function InvitationActions({ id, email }: { id: string; email: string }) {
  const { submit, pending, feedback } = useMutation();
  const withdraw = useMutation();
  const [link, setLink] = useState<TMemberInvited["invitation"] | null>(null);
  return (
    <div className="space-y-2">
      {link && (
        <OnceLink
          id={`invitation-link-${id}`}
          title={`New invitation link for ${email}`}
          note="The earlier link no longer works."
          url={link.url}
          expiresAt={link.expires_at}
        />
      )}
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          className={btn.small}
          disabled={pending}
          onClick={async () => {
            setLink(null);
            const r = await submit<TMemberInvited>({ path: `/members/${id}/invitation`, describe: describeAdminError, refresh: false });
            if (r.ok) setLink(r.data.invitation);
          }}
        >
          New invitation link<span className="sr-only"> for {email}</span>
        </button>
        <ConfirmButton
          label={
            <>
              Withdraw<span className="sr-only"> the invitation of {email}</span>
            </>
          }
          triggerClassName={btn.small}
          title={`Withdraw the invitation of ${email}?`}
          body="The invitation link stops working at once."
          confirmLabel="Withdraw invitation"
          onConfirm={async () => {
            const r = await withdraw.submit({ method: "DELETE", path: `/members/${id}` });
            return r.ok ? null : describeAdminError(r.error);
          }}
        />
      </div>
      <FeedbackMessage feedback={feedback} />
    </div>
  );
}
