"use client";

import { useEffect, useState } from "react";
import { signIn } from "next-auth/react";

// Starts the OpenID Connect redirect (next-auth adds state, nonce and PKCE).
export function SsoButton({ name }: { name: string }) {
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      disabled={busy}
      onClick={() => {
        setBusy(true);
        void signIn("oidc", { callbackUrl: "/dashboard" });
      }}
      className="w-full rounded-md border border-slate-300 bg-white px-4 py-2 font-medium text-slate-900 hover:bg-slate-50 disabled:opacity-60"
    >
      {busy ? "Redirecting…" : `Sign in with ${name}`}
    </button>
  );
}

// After the provider's redirect chain the Strict session cookie is sent only on a
// same-site navigation: this one.
export function SsoContinue() {
  return (
    <div className="space-y-3" role="status">
      <p className="text-sm text-slate-700">Signed in. Opening the dashboard…</p>
      <a href="/dashboard" className="block w-full rounded-md bg-brand-700 px-4 py-2 text-center font-medium text-white hover:bg-brand-900">
        Continue to the dashboard
      </a>
      <AutoContinue />
    </div>
  );
}

function AutoContinue() {
  useEffect(() => {
    window.location.replace("/dashboard");
  }, []);
  return null;
}
