"use client";

import { useState } from "react";
import type { TLink } from "@/lib/schemas/sessions";
import { FeedbackMessage } from "@/components/ui/feedback";
import { useMutation } from "@/components/ui/use-mutation";
import { btn } from "@/components/ui/styles";
import { describeAdminError } from "@/components/settings/messages";
import { OnceLink } from "@/components/settings/once-link";

// POST /members/{id}/password-reset: a one-hour link with which the member sets a new
// password themselves (offered only where the account is this organization's alone).
export function PasswordResetButton({ id, email }: { id: string; email: string }) {
  const { submit, pending, feedback } = useMutation();
  const [link, setLink] = useState<TLink | null>(null);
  return (
    <div className="space-y-2">
      {link && (
        <OnceLink
          id={`reset-link-${id}`}
          title={`Password reset link for ${email}`}
          note="Send it to them: with it they choose a new password, and every session of theirs ends."
          url={link.url}
          expiresAt={link.expires_at}
        />
      )}
      <button
        type="button"
        className={btn.small}
        disabled={pending}
        onClick={async () => {
          setLink(null);
          const r = await submit<TLink>({ path: `/members/${id}/password-reset`, describe: describeAdminError, refresh: false });
          if (r.ok) setLink(r.data);
        }}
      >
        Password reset link<span className="sr-only"> for {email}</span>
      </button>
      <FeedbackMessage feedback={feedback} />
    </div>
  );
}
