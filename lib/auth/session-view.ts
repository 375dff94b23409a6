import type { TSession } from "@/lib/schemas/sessions";

// A session just started (sign-in, organization switch, accepted invitation): its token for
// the cookie and the wire record.
export type SignInResult = { token: string; expiresAt: Date; body: TSession };

export function signedIn(
  started: { token: string; expiresAt: Date },
  user: TSession["user"],
  organization: TSession["organization"],
  role: TSession["role"],
): SignInResult {
  const { token, expiresAt } = started;
  return {
    token,
    expiresAt,
    body: {
      user: { id: user.id, email: user.email, name: user.name },
      organization: { id: organization.id, name: organization.name },
      role,
      expires_at: expiresAt.toISOString(),
    },
  };
}
