import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { LoginForm } from "@/components/forms/login-form";
import { SsoButton, SsoContinue } from "@/components/forms/sso-button";
import { currentUser } from "@/lib/auth/current-user";
import { oidcConfig } from "@/lib/env";
import { SSO_MESSAGES } from "@/lib/auth/sso";

export const metadata: Metadata = { title: "Sign in" };

export default async function LoginPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  if (await currentUser()) redirect("/dashboard");
  const q = await searchParams;
  const sso = oidcConfig();
  const outcome = typeof q.sso === "string" ? q.sso : typeof q.error === "string" ? "failed" : undefined;
  const message = outcome && outcome !== "complete" ? (SSO_MESSAGES[outcome] ?? SSO_MESSAGES.failed) : undefined;
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="w-full max-w-sm rounded-xl border border-slate-200 bg-white p-8 shadow-sm">
        <h1 className="text-2xl font-semibold tracking-tight">Sign in</h1>
        <p className="mb-6 mt-1 text-sm text-slate-600">Issuer dashboard of the Financial Obligations Service.</p>
        {outcome === "complete" ? (
          <SsoContinue />
        ) : (
          <>
            {message && (
              <p role="alert" className="mb-4 rounded-md bg-rose-50 px-3 py-2 text-sm text-rose-800">
                {message}
              </p>
            )}
            {sso && (
              <div className="mb-6 space-y-4">
                <SsoButton name={sso.name} />
                <p className="text-center text-xs uppercase tracking-wide text-slate-600">or with your password</p>
              </div>
            )}
            <LoginForm />
          </>
        )}
      </div>
    </main>
  );
}
