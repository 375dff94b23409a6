"use client";

import { ConfirmButton } from "@/components/ui/confirm-button";
import { btn } from "@/components/ui/styles";
import { describeAdminError } from "@/components/settings/messages";
import { useMutation } from "@/components/ui/use-mutation";

// DELETE /api-keys/{id}, behind a confirmation that shows a refusal in the dialog.
export function RevokeKeyButton({ id, name }: { id: string; name: string }) {
  const { submit } = useMutation();
  return (
    <ConfirmButton
      label={
        <>
          Revoke<span className="sr-only"> {name}</span>
        </>
      }
      triggerClassName={btn.small}
      title={`Revoke the API key “${name}”?`}
      body="Every system using this key is refused from its next call. This cannot be undone."
      confirmLabel="Revoke key"
      onConfirm={async () => {
        const r = await submit({ method: "DELETE", path: `/api-keys/${id}` });
        return r.ok ? null : describeAdminError(r.error);
      }}
    />
  );
}
