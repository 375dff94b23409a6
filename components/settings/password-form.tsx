"use client";

import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useRouter } from "next/navigation";
import { z } from "zod";
import { apiCall } from "@/lib/client/api";
import { ZPasswordChangeInput } from "@/lib/schemas/sessions";
import { Label, FieldError, errorAttrs } from "@/components/ui/field";
import { FeedbackMessage } from "@/components/ui/feedback";
import { useMutation } from "@/components/ui/use-mutation";
import { btn, field } from "@/components/ui/styles";

const ZForm = ZPasswordChangeInput.extend({ confirm_password: z.string() }).refine((v) => v.new_password === v.confirm_password, {
  path: ["confirm_password"],
  message: "does not match the new password",
});
type TForm = z.infer<typeof ZForm>;

// POST /session/password ends every session of the user, this one included; the form then
// signs in again with the new password, so only the other sessions are gone.
// method="post": a submit before hydration (slow script, script error) is the browser's own
// form submission; as GET it would put the password in the URL (access logs, history).
export function PasswordForm({ email }: { email: string }) {
  const router = useRouter();
  const { submit, feedback, setFeedback } = useMutation();
  const { register, handleSubmit, formState, reset } = useForm<TForm>({
    resolver: zodResolver(ZForm),
    defaultValues: { current_password: "", new_password: "", confirm_password: "" },
  });
  const e = formState.errors;
  return (
    <form
      method="post"
      noValidate
      aria-label="Change your password"
      className="space-y-3"
      onSubmit={handleSubmit(async ({ current_password, new_password }) => {
        // No refresh on success: this session has just ended too; it is replaced below.
        const r = await submit({
          path: "/session/password",
          body: { current_password, new_password },
          refresh: false,
          describe: (e) => (e.code === "validation_failed" && e.message.includes("current_password") ? "The current password is incorrect." : undefined),
        });
        if (!r.ok) return;
        const again = await apiCall("POST", "/session", { body: { email, password: new_password } });
        if (!again.ok) {
          router.replace("/login");
          return;
        }
        reset();
        setFeedback({ kind: "success", text: "Password changed. Your other sessions have been signed out." });
        router.refresh();
      })}
    >
      <input type="text" autoComplete="username" value={email} readOnly hidden />
      {(
        [
          ["current_password", "Current password", "current-password"],
          ["new_password", "New password", "new-password"],
          ["confirm_password", "Repeat the new password", "new-password"],
        ] as const
      ).map(([name, label, auto]) => (
        <div key={name}>
          <Label htmlFor={`pw-${name}`}>{label}</Label>
          <input
            id={`pw-${name}`}
            type="password"
            autoComplete={auto}
            {...register(name)}
            {...errorAttrs(`pw-${name}-error`, e[name]?.message)}
            className={field.input}
          />
          <FieldError id={`pw-${name}-error`} message={e[name]?.message} />
        </div>
      ))}
      <p className={field.hint}>At least 12 characters. Changing it signs you out everywhere else.</p>
      <FeedbackMessage feedback={feedback} />
      <button type="submit" className={btn.primary} disabled={formState.isSubmitting}>
        {formState.isSubmitting ? "Changing…" : "Change password"}
      </button>
    </form>
  );
}
