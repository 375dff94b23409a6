"use client";

import { useState } from "react";
import type { ApiError } from "@/lib/client/api";
import { describeApiError } from "@/lib/client/errors";
import { FeedbackMessage } from "@/components/ui/feedback";
import { FieldError, Label, errorAttrs } from "@/components/ui/field";
import { btn, field, link } from "@/components/ui/styles";
import { useMutation } from "@/components/ui/use-mutation";
import { useLinkToken } from "@/components/identity/link-token";

function describe(e: ApiError): string {
  if (e.code === "not_found") return "This password reset link is not valid. Check that you opened the whole link you were sent.";
  if (e.code === "invitation_expired") return "This password reset link has expired or was used already. Ask for a new one.";
  return describeApiError(e);
}

// /password-reset/{id}: the person chooses a new password; every session of theirs ends.
export function PasswordResetForm({ id }: { id: string }) {
  const token = useLinkToken();
  const { submit, pending, feedback } = useMutation();
  const [values, setValues] = useState({ password: "", confirm: "" });
  const [errors, setErrors] = useState<{ password?: string; confirm?: string }>({});
  const [done, setDone] = useState(false);

  if (token === undefined) return <p className="text-sm text-slate-600">Reading the link…</p>;
  if (done) {
    return (
      <div role="status" className="space-y-3">
        <p className="text-sm text-slate-700">Your new password is set. Every session of your account has ended.</p>
        <a href="/login" className={link}>
          Sign in with your new password
        </a>
      </div>
    );
  }
  if (token === null) {
    return (
      <p role="alert" className="rounded-md bg-rose-50 px-3 py-2 text-sm text-rose-800">
        This link is incomplete: the part after “#” is missing. Open the whole link you were sent.
      </p>
    );
  }
  return (
    <form
      method="post"
      noValidate
      aria-label="Choose a new password"
      className="space-y-4"
      onSubmit={async (e) => {
        e.preventDefault();
        const next: typeof errors = {};
        if (values.password.length < 12) next.password = "Choose a password of at least 12 characters.";
        if (values.confirm !== values.password) next.confirm = "The two passwords differ.";
        setErrors(next);
        if (next.password || next.confirm) return;
        const r = await submit({
          path: `/password-resets/${id}/complete`,
          body: { token, new_password: values.password },
          refresh: false,
          signInOn401: false,
          describe,
        });
        if (r.ok) setDone(true);
      }}
    >
      <div>
        <Label htmlFor="reset-password">New password</Label>
        <input
          id="reset-password"
          type="password"
          autoComplete="new-password"
          value={values.password}
          onChange={(e) => setValues({ ...values, password: e.target.value })}
          {...errorAttrs("reset-password-error", errors.password, "reset-password-hint")}
          className={field.input}
        />
        <p id="reset-password-hint" className={field.hint}>
          At least 12 characters.
        </p>
        <FieldError id="reset-password-error" message={errors.password} />
      </div>
      <div>
        <Label htmlFor="reset-confirm">New password again</Label>
        <input
          id="reset-confirm"
          type="password"
          autoComplete="new-password"
          value={values.confirm}
          onChange={(e) => setValues({ ...values, confirm: e.target.value })}
          {...errorAttrs("reset-confirm-error", errors.confirm)}
          className={field.input}
        />
        <FieldError id="reset-confirm-error" message={errors.confirm} />
      </div>
      <FeedbackMessage feedback={feedback} />
      <button type="submit" disabled={pending} className={`${btn.primary} w-full py-2 text-base`}>
        {pending ? "Saving…" : "Set new password"}
      </button>
    </form>
  );
}
