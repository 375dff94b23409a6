"use client";

import { useState } from "react";
import type { Role } from "@/lib/auth/permissions";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { describeAdminError } from "@/components/settings/messages";
import { ROLE_LABELS } from "@/components/settings/roles";
import { btn, field } from "@/components/ui/styles";
import { FeedbackMessage } from "@/components/ui/feedback";
import { useMutation } from "@/components/ui/use-mutation";

// PATCH /members/{id} and DELETE /members/{id} for one row of the members list.
export function MemberActions(props: { id: string; email: string; role: Role; roles: Role[]; lastOwner: boolean }) {
  const [role, setRole] = useState<Role>(props.role);
  const { submit, pending, feedback } = useMutation();
  const remove = useMutation(); // its refusal is shown in the confirmation dialog
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
          disabled={pending || role === props.role}
          onClick={() =>
            submit({
              method: "PATCH",
              path: `/members/${props.id}`,
              body: { role },
              describe: describeAdminError,
              success: `Role changed to ${ROLE_LABELS[role]}.`,
            })
          }
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
            const r = await remove.submit({ method: "DELETE", path: `/members/${props.id}` });
            return r.ok ? null : describeAdminError(r.error);
          }}
        />
      </div>
      <FeedbackMessage feedback={feedback} />
    </div>
  );
}
