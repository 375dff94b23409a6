import type { Tx } from "@/lib/db/client";
import type { Operation } from "@/lib/http/operation";
import type { PrincipalFor } from "@/lib/http/handler-context";
import type { Principal } from "@/lib/auth/principal";
import * as idem from "@/lib/idempotency";

// How the first transaction of an idempotent request claims its Idempotency-Key, and as whom
// the handler then runs. `principal` is unset while the credential is unread (the API-key
// shortcut reads it in that transaction): an error before then is the credential's, never
// stored as the key's response.
export type ClaimStep<O extends Operation> = {
  principal?: PrincipalFor<O>;
  claim: (tx: Tx) => Promise<idem.StoredResponse | undefined>;
};

// The ordinary claim: the credential has passed; lock and look-up of the key in one statement.
export function claimAs<O extends Operation>(principal: PrincipalFor<O>, c: idem.KeyClaim): ClaimStep<O> {
  return { principal, claim: (tx) => idem.claimInTx(tx, c) };
}

// The key's record: per scope, method, path and body fingerprint.
export function keyClaim(op: Operation, req: Request, key: string, fingerprintBody: unknown, scope: idem.KeyScope): idem.KeyClaim {
  return idem.keyClaim(scope, key, op.method, new URL(req.url).pathname, fingerprintBody);
}

// An Idempotency-Key is the organization's (issuers) or the link's (link holders); either way
// in the organization's records.
export function scopeOf(p: Principal): idem.KeyScope {
  if (p.kind === "recipient") return { scope: `req:${p.paymentRequestId}`, organizationId: p.organizationId };
  if (p.kind === "api_key" || p.kind === "user") return { scope: `org:${p.organizationId}`, organizationId: p.organizationId };
  throw new Error("idempotent anonymous operations need an idempotencyScope");
}
