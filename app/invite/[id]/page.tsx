import type { Metadata } from "next";
import { currentUser } from "@/lib/auth/current-user";
import { oidcConfig } from "@/lib/env";
import { AcceptInvitationForm } from "@/components/identity/accept-invitation-form";

export const metadata: Metadata = { title: "Accept an invitation", referrer: "no-referrer" };

// The invitation link's page: the token is in the fragment, read by the browser only.
export default async function InvitePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const user = await currentUser();
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="w-full max-w-sm rounded-xl border border-slate-200 bg-white p-8 shadow-sm">
        <h1 className="text-2xl font-semibold tracking-tight">Accept your invitation</h1>
        <p className="mb-6 mt-1 text-sm text-slate-600">
          You were invited to an organization on the Financial Obligations Service. Only you set your password: nobody in the organization sees it.
        </p>
        <AcceptInvitationForm id={id} signedInAs={user?.email} ssoName={oidcConfig()?.name} />
      </div>
    </main>
  );
}
