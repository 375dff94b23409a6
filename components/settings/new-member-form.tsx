"use client";

import { useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { ZMemberInput, type TMemberInput, type TMemberInvited } from "@/lib/schemas/administration";
import type { Role } from "@/lib/auth/permissions";
import { Label, FieldError, errorAttrs } from "@/components/ui/field";
import { FeedbackMessage } from "@/components/ui/feedback";
import { useMutation } from "@/components/ui/use-mutation";
import { btn, field } from "@/components/ui/styles";
import { describeAdminError } from "@/components/settings/messages";
import { OnceLink } from "@/components/settings/once-link";
import { ROLE_LABELS } from "@/components/settings/roles";

// POST /members: an invitation. The person sets their own password (or uses single
// sign-on) through the link, which is shown here once.
export function NewMemberForm({ roles }: { roles: Role[] }) {
  const { submit, feedback } = useMutation();
  const [invited, setInvited] = useState<TMemberInvited | null>(null);
  const { register, handleSubmit, formState, reset } = useForm<TMemberInput>({
    resolver: zodResolver(ZMemberInput),
    defaultValues: { email: "", name: "", role: "member" },
  });
  const e = formState.errors;
  return (
    <div className="space-y-4">
      {invited && (
        <OnceLink
          id="new-invitation-link"
          title={`${invited.member.email} is invited as ${ROLE_LABELS[invited.member.role]}.`}
          note="Send this invitation link to them yourself: with it they set their own password or use single sign-on."
          url={invited.invitation.url}
          expiresAt={invited.invitation.expires_at}
        />
      )}
      <form
        noValidate
        aria-label="Invite a member"
        className="space-y-3"
        onSubmit={handleSubmit(async (values) => {
          setInvited(null);
          const r = await submit<TMemberInvited>({ path: "/members", body: { ...values, name: values.name || undefined }, describe: describeAdminError });
          if (!r.ok) return;
          setInvited(r.data);
          reset();
        })}
      >
        <div className="grid gap-3 sm:grid-cols-2">
          <div>
            <Label htmlFor="member-email">Email</Label>
            <input
              id="member-email"
              type="email"
              autoComplete="off"
              {...register("email")}
              {...errorAttrs("member-email-error", e.email?.message)}
              className={field.input}
            />
            <FieldError id="member-email-error" message={e.email?.message} />
          </div>
          <div>
            <Label htmlFor="member-name">
              Name <span className="font-normal text-slate-600">(optional)</span>
            </Label>
            <input id="member-name" autoComplete="off" {...register("name")} className={field.input} />
          </div>
          <div>
            <Label htmlFor="member-role">Role</Label>
            <select id="member-role" {...register("role")} className={field.input}>
              {roles.map((r) => (
                <option key={r} value={r}>
                  {ROLE_LABELS[r]}
                </option>
              ))}
            </select>
          </div>
        </div>
        <p className="text-sm text-slate-600">The link works for 7 days. Nobody in your organization chooses or sees the person's password.</p>
        <FeedbackMessage feedback={feedback} />
        <button type="submit" className={btn.primary} disabled={formState.isSubmitting}>
          {formState.isSubmitting ? "Inviting…" : "Invite member"}
        </button>
      </form>
    </div>
  );
}
