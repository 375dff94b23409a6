import { type Permission, ROLE_PERMISSIONS, type Role, type Scope } from "@/lib/auth/permissions";

// Who is calling. Every tenant-scoped query filters by principal.organizationId.
// organizationName: read with the credential (one join), for the wire records' issuer_name.
export type ApiKeyPrincipal = { kind: "api_key"; organizationId: string; organizationName: string; apiKeyId: string; scopes: readonly Scope[] };
export type UserPrincipal = {
  kind: "user";
  organizationId: string;
  organizationName: string;
  userId: string;
  sessionId: string;
  role: Role;
  email: string;
  name: string;
};
export type IssuerPrincipal = ApiKeyPrincipal | UserPrincipal;

export type RecipientPrincipal = {
  kind: "recipient";
  organizationId: string;
  paymentRequestId: string;
  obligationId: string;
  sessionId: string;
  // Through an account link (docs/recipient-portal.md): the link and its counterparty. The
  // account's own principal names the link as paymentRequestId (rate limit and idempotency
  // scope per link) and no obligation; per obligation, lib/account-links/account-obligation.ts.
  accountLinkId?: string;
  counterpartyId?: string;
};

// A scheduler that presented CRON_SECRET (auth "cron").
export type CronPrincipal = { kind: "cron" };
export type AnonymousPrincipal = { kind: "anonymous" };

// One kind per auth mode of an operation (lib/http/operation.ts); handle() narrows it.
export type Principal = IssuerPrincipal | RecipientPrincipal | CronPrincipal | AnonymousPrincipal;

// The actor recorded on audit events.
export function actorOf(p: Principal): { actorType: string; actorId: string; actorLabel: string } {
  switch (p.kind) {
    case "api_key":
      return { actorType: "api_key", actorId: p.apiKeyId, actorLabel: "API key" };
    case "user":
      return { actorType: "user", actorId: p.userId, actorLabel: p.name || p.email };
    case "recipient":
      return { actorType: "recipient", actorId: p.paymentRequestId, actorLabel: "Recipient" };
    default:
      return { actorType: "system", actorId: "", actorLabel: "System" };
  }
}

// Whether an issuer principal holds a permission: an API key by its scopes, a person by
// their role (the same table handle() authorizes with).
export function holds(p: IssuerPrincipal, permission: Permission): boolean {
  return p.kind === "api_key" ? (p.scopes as readonly string[]).includes(permission) : ROLE_PERMISSIONS[p.role].includes(permission);
}

// The hosted URL is a write capability (whoever holds it acts as the payer): it is shown only
// to principals that may change obligations (docs/security.md).
export const mayRevealLink = (p: IssuerPrincipal): boolean => holds(p, "obligations:write");
