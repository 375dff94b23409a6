import type { Metadata } from "next";
import { PasswordResetForm } from "@/components/identity/password-reset-form";

export const metadata: Metadata = { title: "Choose a new password", referrer: "no-referrer" };

// The password-reset link's page: the token is in the fragment, read by the browser only.
export default async function PasswordResetPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="w-full max-w-sm rounded-xl border border-slate-200 bg-white p-8 shadow-sm">
        <h1 className="text-2xl font-semibold tracking-tight">Choose a new password</h1>
        <p className="mb-6 mt-1 text-sm text-slate-600">Only you choose it: nobody in your organization sees it.</p>
        <PasswordResetForm id={id} />
      </div>
    </main>
  );
}
