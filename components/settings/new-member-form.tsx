"use client";

import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { ZMemberInput, type TMember, type TMemberInput } from "@/lib/schemas/administration";
import type { Role } from "@/lib/auth/permissions";
import { Label, FieldError, errorAttrs } from "@/components/ui/field";
import { FeedbackMessage } from "@/components/ui/feedback";
import { useMutation } from "@/components/ui/use-mutation";
import { btn, field } from "@/components/ui/styles";
import { describeAdminError } from "@/components/settings/messages";
import { ROLE_LABELS } from "@/components/settings/roles";

// POST /members: with an initial password, or single sign-on only.
// method="post": a submit before hydration (slow script, script error) is the browser's own
// form submission; as GET it would put the password in the URL (access logs, history).
export function NewMemberForm({ roles, ssoName }: { roles: Role[]; ssoName?: string }) {
  const { submit, feedback } = useMutation();
  const { register, handleSubmit, formState, reset, watch } = useForm<TMemberInput>({
    resolver: zodResolver(ZMemberInput),
    defaultValues: { email: "", name: "", role: "member", sign_in: "password", password: "" },
  });
  const signIn = watch("sign_in");
  const e = formState.errors;
  return (
    <form
      method="post"
      noValidate
      aria-label="Add a member"
      className="space-y-3"
      onSubmit={handleSubmit(async (values) => {
        const body = { ...values, name: values.name || undefined, password: values.sign_in === "password" ? values.password : undefined };
        const r = await submit<TMember>({
          path: "/members",
          body,
          describe: describeAdminError,
          success: (m) => `${m.email} was added as ${ROLE_LABELS[m.role]}.`,
        });
        if (r.ok) reset();
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
      <fieldset>
        <legend className={field.label}>Sign-in</legend>
        <div className="mt-1 space-y-1">
          <label className="flex items-center gap-2 text-sm text-slate-800">
            <input type="radio" value="password" {...register("sign_in")} className="h-4 w-4" /> With an initial password
          </label>
          <label className="flex items-center gap-2 text-sm text-slate-800">
            <input type="radio" value="identity_provider" {...register("sign_in")} className="h-4 w-4" /> Only with {ssoName ?? "single sign-on"}
          </label>
        </div>
      </fieldset>
      {signIn === "password" && (
        <div>
          <Label htmlFor="member-password">Initial password</Label>
          <input
            id="member-password"
            type="password"
            autoComplete="new-password"
            {...register("password")}
            aria-invalid={!!e.password}
            aria-describedby={`member-password-hint${e.password ? " member-password-error" : ""}`}
            className={field.input}
          />
          <p id="member-password-hint" className={field.hint}>
            At least 12 characters. Share it with the person; they can change it under Settings → Account.
          </p>
          <FieldError id="member-password-error" message={e.password?.message} />
        </div>
      )}
      <FeedbackMessage feedback={feedback} />
      <button type="submit" className={btn.primary} disabled={formState.isSubmitting}>
        {formState.isSubmitting ? "Adding…" : "Add member"}
      </button>
    </form>
  );
}
