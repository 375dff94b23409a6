"use client";

import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useRouter } from "next/navigation";
import { ZLoginInput, type TLoginInput } from "@/lib/schemas/sessions";
import { FeedbackMessage } from "@/components/ui/feedback";
import { FieldError, Label, errorAttrs } from "@/components/ui/field";
import { btn, field } from "@/components/ui/styles";
import { useMutation } from "@/components/ui/use-mutation";

// method="post": a submit before hydration (slow script, script error) is the browser's own
// form submission; as GET it would put the password in the URL (access logs, history).
export function LoginForm() {
  const router = useRouter();
  const { submit, pending, feedback } = useMutation();
  const { register, handleSubmit, formState } = useForm<TLoginInput>({ resolver: zodResolver(ZLoginInput) });
  const e = formState.errors;

  const onSubmit = handleSubmit(async (body) => {
    const r = await submit({
      path: "/session",
      body,
      refresh: false,
      signInOn401: false,
      // one wording for an unknown email and a wrong password
      describe: (err) => (err.code === "rate_limited" ? "Too many attempts. Wait a few minutes and try again." : "Email or password is incorrect."),
    });
    if (!r.ok) return;
    router.replace("/dashboard");
    router.refresh();
  });

  return (
    <form method="post" onSubmit={onSubmit} noValidate className="space-y-4">
      <div>
        <Label htmlFor="email">Email</Label>
        <input
          id="email"
          type="email"
          autoComplete="username"
          {...register("email")}
          {...errorAttrs("email-error", e.email && "Enter your email address.")}
          className={field.input}
        />
        <FieldError id="email-error" message={e.email && "Enter your email address."} />
      </div>
      <div>
        <Label htmlFor="password">Password</Label>
        <input
          id="password"
          type="password"
          autoComplete="current-password"
          {...register("password")}
          {...errorAttrs("password-error", e.password && "Enter your password.")}
          className={field.input}
        />
        <FieldError id="password-error" message={e.password && "Enter your password."} />
      </div>
      <FeedbackMessage feedback={feedback} />
      <button type="submit" disabled={pending} className={`${btn.primary} w-full py-2 text-base`}>
        {pending ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
