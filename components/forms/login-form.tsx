"use client";

import { useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useRouter } from "next/navigation";
import { ZLoginInput, type TLoginInput } from "@/lib/schemas/sessions";
import { apiCall } from "@/lib/client/api";

export function LoginForm() {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const { register, handleSubmit, formState } = useForm<TLoginInput>({ resolver: zodResolver(ZLoginInput) });

  const onSubmit = handleSubmit(async (values) => {
    setError(null);
    const r = await apiCall("POST", "/session", { body: values });
    if (!r.ok) {
      setError(r.error.code === "rate_limited" ? "Too many attempts. Wait a few minutes and try again." : "Email or password is incorrect.");
      return;
    }
    router.replace("/dashboard");
    router.refresh();
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <div>
        <label htmlFor="email" className="block text-sm font-medium">Email</label>
        <input id="email" type="email" autoComplete="username" {...register("email")}
          className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2" aria-invalid={!!formState.errors.email} />
        {formState.errors.email && <p className="mt-1 text-sm text-rose-700">Enter your email address.</p>}
      </div>
      <div>
        <label htmlFor="password" className="block text-sm font-medium">Password</label>
        <input id="password" type="password" autoComplete="current-password" {...register("password")}
          className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2" aria-invalid={!!formState.errors.password} />
        {formState.errors.password && <p className="mt-1 text-sm text-rose-700">Enter your password.</p>}
      </div>
      {error && <p role="alert" className="rounded-md bg-rose-50 px-3 py-2 text-sm text-rose-800">{error}</p>}
      <button type="submit" disabled={formState.isSubmitting}
        className="w-full rounded-md bg-brand-700 px-4 py-2 font-medium text-white hover:bg-brand-900 disabled:opacity-60">
        {formState.isSubmitting ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
