"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { apiCall } from "@/lib/client/api";
import type { Role } from "@/lib/auth/permissions";
import { ConfirmButton } from "@/components/settings/confirm-button";
import { describeAdminError } from "@/components/settings/messages";
import { ROLE_LABELS } from "@/components/settings/roles";
import { btn, field } from "@/components/ui/styles";

// PATCH /members/{id} and DELETE /members/{id} for one row of the members list.
export function MemberActions(props: { id: string; email: string; role: Role; roles: Role[]; lastOwner: boolean }) {
  const router = useRouter();
  const [role, setRole] = useState<Role>(props.role);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ kind: "error" | "success"; text: string } | null>(null);
  const selectId = `role-${props.id}`;
  if (props.lastOwner) {
    return <p className="text-sm text-slate-600">The only owner: make another member owner before changing this role or removing them.</p>;
  }
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-end gap-2">
        <div>
          <label htmlFor={selectId} className="block text-xs font-medium text-slate-700">
            Role of {props.email}
          </label>
          <select id={selectId} value={role} onChange={(e) => setRole(e.target.value as Role)} className={`${field.input} mt-0.5 py-1`}>
            {props.roles.map((r) => (
              <option key={r} value={r}>
                {ROLE_LABELS[r]}
              </option>
            ))}
          </select>
        </div>
        <button
          type="button"
          className={btn.small}
          disabled={busy || role === props.role}
          onClick={async () => {
            setBusy(true);
            setMessage(null);
            const r = await apiCall("PATCH", `/members/${props.id}`, { body: { role } });
            setBusy(false);
            if (!r.ok) return setMessage({ kind: "error", text: describeAdminError(r.error) });
            setMessage({ kind: "success", text: `Role changed to ${ROLE_LABELS[role]}.` });
            router.refresh();
          }}
        >
          Save role<span className="sr-only"> of {props.email}</span>
        </button>
        <ConfirmButton
          label={
            <>
              Remove<span className="sr-only"> {props.email}</span>
            </>
          }
          triggerClassName={btn.small}
          title={`Remove ${props.email}?`}
          body="They lose access at once: every session of theirs in this organization ends."
          confirmLabel="Remove member"
          onConfirm={async () => {
            const r = await apiCall("DELETE", `/members/${props.id}`);
            if (!r.ok) return describeAdminError(r.error);
            router.refresh();
            return null;
          }}
        />
      </div>
      {message && (
        <p role={message.kind === "error" ? "alert" : "status"} className={`text-sm ${message.kind === "error" ? "text-rose-800" : "text-emerald-900"}`}>
          {message.text}
        </p>
      )}
    </div>
  );
}
