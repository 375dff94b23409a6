import type { Role, Scope } from "@/lib/auth/permissions";

// Who is calling. Every tenant-scoped query filters by principal.organizationId.
export type IssuerPrincipal =
  | { kind: "api_key"; organizationId: string; apiKeyId: string; scopes: readonly Scope[] }
  | { kind: "user"; organizationId: string; userId: string; sessionId: string; role: Role; email: string; name: string };

export type RecipientPrincipal = {
  kind: "recipient";
  organizationId: string;
  paymentRequestId: string;
  obligationId: string;
  sessionId: string;
};

export type Principal = IssuerPrincipal | RecipientPrincipal | { kind: "anonymous" };

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
