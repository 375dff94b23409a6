"use client";

import { describeApiError } from "@/lib/client/errors";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { FeedbackMessage } from "@/components/ui/feedback";
import { useMutation } from "@/components/ui/use-mutation";

// DELETE /session/sessions: every other session of this user ends; this one stays.
export function EndOtherSessionsButton({ others }: { others: number }) {
  const { submit, feedback } = useMutation();
  return (
    <div className="space-y-2">
      <ConfirmButton
        label="Sign out everywhere else"
        title="Sign out everywhere else?"
        body={`Your ${others === 1 ? "other session ends" : `${others} other sessions end`} at once; this browser stays signed in.`}
        confirmLabel="Sign out other sessions"
        onConfirm={async () => {
          const r = await submit({ method: "DELETE", path: "/session/sessions", success: "Every other session has been signed out." });
          return r.ok ? null : describeApiError(r.error);
        }}
      />
      {/* a refusal is shown in the dialog */}
      <FeedbackMessage feedback={feedback?.kind === "success" ? feedback : null} />
    </div>
  );
}
