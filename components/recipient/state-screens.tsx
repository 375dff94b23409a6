import type { ReactNode } from "react";

// Full-page states of the hosted page: each has a heading, a plain explanation and what
// the person can do next.
export type ScreenKind = "loading" | "invalid" | "expired" | "revoked" | "network" | "error";

const SCREENS: Record<Exclude<ScreenKind, "loading">, { title: string; body: string; tone: string }> = {
  invalid: {
    title: "This link does not work",
    body: "The link may be incomplete, or it has been replaced by a newer one. Open the most recent link you received, copying the whole address, or ask the sender for a new link.",
    tone: "border-amber-300 bg-amber-50",
  },
  expired: {
    title: "This payment link has expired",
    body: "For your security, payment links work for a limited time. Ask the sender for a new link.",
    tone: "border-amber-300 bg-amber-50",
  },
  revoked: {
    title: "This payment link was withdrawn",
    body: "The sender has cancelled this link. If you still need to pay or have a question, contact the sender directly for a new link.",
    tone: "border-amber-300 bg-amber-50",
  },
  network: {
    title: "We could not reach the payment page",
    body: "Check your internet connection and try again. Nothing was lost.",
    tone: "border-rose-300 bg-rose-50",
  },
  error: {
    title: "Something went wrong",
    body: "The page could not be loaded. Please try again in a moment.",
    tone: "border-rose-300 bg-rose-50",
  },
};

export function StateScreen({ kind, onRetry }: { kind: ScreenKind; onRetry?: () => void }) {
  if (kind === "loading") {
    return (
      <section aria-labelledby="state-title" aria-busy="true" className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm" data-state="loading">
        <h1 id="state-title" className="text-xl font-semibold">
          Opening your payment page…
        </h1>
        <p className="mt-2 text-slate-700" role="status">
          Checking your secure link.
        </p>
        <noscript>
          <p className="mt-2 text-slate-800">This page needs JavaScript to show your payment request.</p>
        </noscript>
      </section>
    );
  }
  const s = SCREENS[kind];
  return (
    <section aria-labelledby="state-title" className={`rounded-xl border p-6 ${s.tone}`} data-state={kind}>
      <h1 id="state-title" className="text-xl font-semibold" tabIndex={-1}>
        {s.title}
      </h1>
      <p className="mt-2 text-slate-800">{s.body}</p>
      {onRetry && (
        <button type="button" onClick={onRetry} className="mt-4 inline-flex min-h-11 items-center rounded-md bg-brand-700 px-4 py-2 font-medium text-white hover:bg-brand-900">
          Try again
        </button>
      )}
    </section>
  );
}

export function PaidBanner({ issuer }: { issuer: string }): ReactNode {
  return (
    <section aria-labelledby="paid-title" className="rounded-xl border border-emerald-300 bg-emerald-50 p-4 sm:p-6" data-state="reconciled">
      <h2 id="paid-title" className="text-lg font-semibold text-emerald-950">
        Paid in full — thank you
      </h2>
      <p className="mt-1 text-emerald-950">{issuer || "The sender"} has received and matched your payment. There is nothing left to do.</p>
    </section>
  );
}
