import type { Metadata } from "next";
import { connection } from "next/server";
import { isUuid } from "@/lib/ids";
import { RecipientPortal } from "@/components/recipient/recipient-portal";

// GET /r/{request} – the hosted payment page of a secure link (`/r/{request}#{token}`).
// A server shell around the client island that exchanges the fragment token; rendered per
// request so proxy.ts's CSP nonce reaches Next's scripts. No data is rendered here: the
// token never reaches the server, and the session cookie is scoped to the recipient API.
export const metadata: Metadata = {
  title: "Payment request",
  description: "A private payment page.",
  robots: { index: false, follow: false, nocache: true, googleBot: { index: false, follow: false } },
  referrer: "no-referrer",
};

export default async function RecipientPage({ params }: { params: Promise<{ request: string }> }) {
  await connection();
  const { request } = await params;
  return (
    <div className="min-h-screen bg-slate-50">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-2xl items-center gap-2 px-4 py-3 text-sm text-slate-700">
          <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4 fill-current text-emerald-800">
            <path d="M10 1a5 5 0 0 0-5 5v3H4a1 1 0 0 0-1 1v8a1 1 0 0 0 1 1h12a1 1 0 0 0 1-1v-8a1 1 0 0 0-1-1h-1V6a5 5 0 0 0-5-5Zm-3 8V6a3 3 0 1 1 6 0v3H7Z" />
          </svg>
          <span>Secure payment page</span>
        </div>
      </header>
      <main className="mx-auto max-w-2xl px-4 py-6 sm:py-8">
        <RecipientPortal requestId={isUuid(request) ? request.toLowerCase() : null} />
      </main>
      <footer className="mx-auto max-w-2xl px-4 pb-10 text-sm text-slate-700">
        <p>This page is private to you: do not forward its link. It does not take payments; pay the way the sender asked and report it here.</p>
      </footer>
    </div>
  );
}
