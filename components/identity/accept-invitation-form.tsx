"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { signIn as ssoSignIn } from "next-auth/react";
import type { ApiError } from "@/lib/client/api";
import { describeApiError } from "@/lib/client/errors";
import { SSO_INVITATION_COOKIE } from "@/lib/auth/sso-invitation";
import { FeedbackMessage } from "@/components/ui/feedback";
import { FieldError, Label, errorAttrs } from "@/components/ui/field";
import { btn, field } from "@/components/ui/styles";
import { useMutation } from "@/components/ui/use-mutation";
import { useLinkToken } from "@/components/identity/link-token";

function describe(e: ApiError): string {
  switch (e.code) {
    case "not_found":
      return "This invitation link is not valid. Check that you opened the whole link you were sent.";
    case "unauthenticated":
      return "An account with this email address exists already, and this is not its password. Enter the password you use to sign in, or sign in with single sign-on.";
    case "validation_failed":
      return "Choose a password of at least 12 characters.";
    case "rate_limited":
      return "Too many attempts. Wait a few minutes and try again.";
    default:
      return describeApiError(e);
  }
}

// The invitee's side of an invitation (/invite/{id}): a new password, the existing
// account's password, the current session of that account, or single sign-on.
export function AcceptInvitationForm({ id, signedInAs, ssoName }: { id: string; signedInAs?: string; ssoName?: string }) {
  const router = useRouter();
  const token = useLinkToken();
  const { submit, pending, feedback } = useMutation();
  const [password, setPassword] = useState("");
  const [missing, setMissing] = useState(false);

  if (token === undefined) return <p className="text-sm text-slate-600">Reading the invitation…</p>;
  if (token === null) {
    return (
      <p role="alert" className="rounded-md bg-rose-50 px-3 py-2 text-sm text-rose-800">
        This link is incomplete: the part after “#” is missing. Open the whole invitation link you were sent.
      </p>
    );
  }
  const accept = async (body: { token: string; password?: string }) => {
    const r = await submit({ path: `/invitations/${id}/accept`, body, refresh: false, signInOn401: false, describe });
    if (r.ok) {
      router.replace("/dashboard");
      router.refresh();
    }
  };
  return (
    <div className="space-y-6">
      {signedInAs && (
        <div className="space-y-2">
          <p className="text-sm text-slate-700">
            You are signed in as <span className="font-medium">{signedInAs}</span>. If the invitation is for this account, accept it without a password.
          </p>
          <button type="button" className={`${btn.secondary} w-full`} disabled={pending} onClick={() => accept({ token })}>
            Accept as {signedInAs}
          </button>
        </div>
      )}
      {ssoName && (
        <button
          type="button"
          className={`${btn.secondary} w-full`}
          onClick={() => {
            // biome-ignore lint/suspicious/noDocumentCookie: a plain cookie for next-auth's callback (no Cookie Store API in every browser)
            document.cookie = `${SSO_INVITATION_COOKIE}=${id}.${encodeURIComponent(token)}; Path=/api/auth; Max-Age=900; SameSite=Lax${location.protocol === "https:" ? "; Secure" : ""}`;
            void ssoSignIn("oidc", { callbackUrl: "/dashboard" });
          }}
        >
          Accept with {ssoName}
        </button>
      )}
      <form
        method="post"
        noValidate
        aria-label="Accept the invitation"
        className="space-y-4"
        onSubmit={(e) => {
          e.preventDefault();
          setMissing(password === "");
          if (password !== "") void accept({ token, password });
        }}
      >
        <div>
          <Label htmlFor="invite-password">Password</Label>
          <input
            id="invite-password"
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            {...errorAttrs("invite-password-error", missing ? "Enter a password." : undefined, "invite-password-hint")}
            className={field.input}
          />
          <p id="invite-password-hint" className={field.hint}>
            New here? Choose a password of at least 12 characters. Already have an account with this email address? Enter its password.
          </p>
          <FieldError id="invite-password-error" message={missing ? "Enter a password." : undefined} />
        </div>
        <FeedbackMessage feedback={feedback} />
        <button type="submit" disabled={pending} className={`${btn.primary} w-full py-2 text-base`}>
          {pending ? "Accepting…" : "Accept invitation"}
        </button>
      </form>
    </div>
  );
}
