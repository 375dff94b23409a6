"use client";

import { useRouter } from "next/navigation";
import { apiCall } from "@/lib/client/api";
import { ConfirmButton } from "@/components/settings/confirm-button";
import { btn } from "@/components/ui/styles";
import { describeAdminError } from "@/components/settings/messages";

export function RevokeKeyButton({ id, name }: { id: string; name: string }) {
  const router = useRouter();
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
        const r = await apiCall("DELETE", `/api-keys/${id}`);
        if (!r.ok) return describeAdminError(r.error);
        router.refresh();
        return null;
      }}
    />
  );
}
