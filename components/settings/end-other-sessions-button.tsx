"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { apiCall } from "@/lib/client/api";
import { describeApiError } from "@/lib/client/errors";
import { ConfirmButton } from "@/components/settings/confirm-button";

// DELETE /session/sessions: every other session of this user ends; this one stays.
export function EndOtherSessionsButton({ others }: { others: number }) {
  const router = useRouter();
  const [done, setDone] = useState<string | null>(null);
  return (
    <div className="space-y-2">
      <ConfirmButton
        label="Sign out everywhere else"
        title="Sign out everywhere else?"
        body={`Your ${others === 1 ? "other session ends" : `${others} other sessions end`} at once; this browser stays signed in.`}
        confirmLabel="Sign out other sessions"
        onConfirm={async () => {
          const r = await apiCall("DELETE", "/session/sessions");
          if (!r.ok) return describeApiError(r.error);
          setDone("Every other session has been signed out.");
          router.refresh();
          return null;
        }}
      />
      <p role="status" className="text-sm text-emerald-900">
        {done}
      </p>
    </div>
  );
}
