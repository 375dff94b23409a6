import { env } from "@/lib/env";
import { logger } from "@/lib/log";
import type { Operation } from "@/lib/http/operation";
import type { HandleOptions } from "@/lib/http/handler-context";
import { rawBodyOf } from "@/lib/http/raw";
import { apiKeyRefused, bearerToken, principalFor } from "@/lib/http/steps/authenticate";
import { authorize } from "@/lib/http/steps/authorize";
import { scopeOf, type ClaimStep } from "@/lib/http/steps/claim";
import * as idem from "@/lib/idempotency";
import type { ApiKeyPrincipal } from "@/lib/auth/principal";
import { apiKeyLookup, apiKeyPrincipal, apiKeyRow, isStaleUse, touchApiKey, type ApiKeyRow } from "@/lib/auth/resolve-api-key";

// The API key of a request that may take the API-key shortcut (an issuer mutation with an
// Idempotency-Key, a Bearer key and its body in memory); else undefined: the ordinary order.
export function apiKeyClaimable(op: Operation, req: Request, options: HandleOptions): string | undefined {
  if (op.auth !== "issuer" || op.method === "GET" || !op.idempotent || op.multipart) return undefined;
  if (options.idempotencyScope || options.beforeTransaction || options.withoutTransaction || options.countAttempt) return undefined;
  if (env().API_RATE_LIMIT_PER_MINUTE > 0 || req.headers.get("idempotency-key") === null) return undefined;
  if (op.method !== "DELETE" && req.body !== null && rawBodyOf(req) === undefined) return undefined;
  const token = bearerToken(req.headers.get("authorization"));
  // a key whose route is malformed: the ordinary order refuses it
  return token !== undefined && apiKeyLookup(token) !== undefined ? token : undefined;
}

export type ApiKeyClaimStep<O extends Operation> = ClaimStep<O> & {
  // the key's row when its last use is to be recorded, after the request
  stale?: ApiKeyRow;
};

// The claim step of the API-key shortcut: the key's row and the Idempotency-Key's claim go
// out together with BEGIN; the claim takes its scope from the row inside the statement, the
// credential and its scope are checked on the row (a refusal rolls the claim back).
// docs/architecture.md, "Why: the API-key shortcut".
export function apiKeyClaimStep<O extends Operation>(op: O, apiKey: string, c: idem.KeyClaim, onPrincipal: (p: ApiKeyPrincipal) => void): ApiKeyClaimStep<O> {
  const keyLookup = apiKeyLookup(apiKey);
  if (keyLookup === undefined) throw apiKeyRefused(); // apiKeyClaimable let only well-formed keys through
  const step: ApiKeyClaimStep<O> = {
    claim: async (tx) => {
      const rowSent = apiKeyRow(tx, keyLookup);
      const claimSent = idem.claimForApiKeyInTx(tx, keyLookup.hash, c.key, keyLookup.organizationId);
      claimSent.catch(() => undefined); // fails only with the transaction, answered below
      const row = await rowSent;
      const p = apiKeyPrincipal(row);
      if (!p) throw apiKeyRefused();
      if (row && isStaleUse(row)) step.stale = row;
      onPrincipal(p);
      authorize(op, p);
      const scope = scopeOf(p);
      c.scope = scope.scope;
      c.organizationId = scope.organizationId ?? idem.NO_ORGANIZATION;
      step.principal = principalFor(op, p);
      const claimRow = (await claimSent)[0];
      if (claimRow?.scope !== c.scope) throw new Error("the Idempotency-Key claim was made for another scope");
      return idem.claimed(claimRow, c);
    },
  };
  return step;
}

// Records the key's use (at most once a minute per key), after the request's transaction.
export async function touchStaleKey(stale: ApiKeyRow | undefined, requestId: string): Promise<void> {
  if (!stale) return;
  await touchApiKey(stale).catch((err: unknown) => logger().warn({ requestId, err: String(err) }, "could not record the API key's use"));
}
