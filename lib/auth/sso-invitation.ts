// The invitation page (/invite/{id}) hands its invitation to single sign-on in a short-lived
// cookie `{id}.{token}` (path /api/auth), read once by next-auth's sign-in callback.
export const SSO_INVITATION_COOKIE = "fos_sso_invitation";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function parseInvitationCookie(value: string | undefined): { id: string; token: string } | undefined {
  if (!value) return undefined;
  const dot = value.indexOf(".");
  const id = value.slice(0, dot);
  const token = value.slice(dot + 1);
  if (dot < 0 || !UUID.test(id) || token.length === 0 || token.length > 200) return undefined;
  return { id, token };
}
