import type { Operation } from "@/lib/http/operation";
import type { Handler, HandleOptions } from "@/lib/http/handler-context";
import type { Principal } from "@/lib/auth/principal";
import { authenticate } from "@/lib/http/steps/authenticate";
import { authorize } from "@/lib/http/steps/authorize";
import { enforceRateLimit } from "@/lib/http/steps/rate-limit";
import { readRequest, type RequestRead } from "@/lib/http/steps/read-request";
import { admitBody, parseBody } from "@/lib/http/steps/admit-body";
import { claimAs, keyClaim, scopeOf } from "@/lib/http/steps/claim";
import { apiKeyClaimStep, touchStaleKey } from "@/lib/http/steps/api-key-claim";
import { runHandler } from "@/lib/http/steps/run-handler";
import { answerIdempotent, runIdempotent } from "@/lib/http/steps/run-idempotent";
import { toResponse } from "@/lib/http/respond";

// The two orders of the pipeline's steps (lib/http/steps/); docs/architecture.md, "Layers".

// One request as the pipeline sees it; `principal` is what the request log names.
export type Call<O extends Operation> = {
  op: O;
  fn: Handler<O>;
  options: HandleOptions;
  req: Request;
  rawParams: Record<string, string>;
  requestId: string;
  principal: Principal;
};

// The ordinary order: credential, permission, rate limit, request (params, key, body, query),
// body schema, then the handler: in a transaction, with an Idempotency-Key the claim's.
export async function ordinaryOrder<O extends Operation>(call: Call<O>): Promise<Response> {
  const { op, fn, options, req, rawParams, requestId } = call;
  const principal = await authenticate(op, req, rawParams);
  call.principal = principal;
  authorize(op, principal);
  await enforceRateLimit(op, principal);
  const read = await readRequest(op, req, rawParams, requestId);
  const admit = () => admitBody(op, read.rawBody, principal, read.ctx, options);
  const key = read.ctx.idempotencyKey;
  if (key === undefined) return toResponse(await runHandler(op, fn, read.ctx, principal, await admit(), options), requestId);
  const scope = options.idempotencyScope ? await options.idempotencyScope(req, read.rawBody, rawParams) : scopeOf(principal);
  const c = keyClaim(op, req, key, read.fingerprintBody, scope);
  return answerIdempotent(await runIdempotent(op, fn, read.ctx, c, claimAs(principal, c), admit), req, read.rawBody, rawParams, requestId, options);
}

// The API-key shortcut (lib/http/steps/api-key-claim.ts): request first, then credential,
// permission and claim in the first transaction's one write; the same answers as the
// ordinary order. Undefined: left to it (any refusal of the request is, so a bad credential
// is still 401 before it). docs/architecture.md, "Why: the API-key shortcut".
export async function apiKeyOrder<O extends Operation>(call: Call<O>, apiKey: string): Promise<Response | undefined> {
  const { op, fn, options, req, rawParams, requestId } = call;
  let read: RequestRead<O>;
  try {
    read = await readRequest(op, req, rawParams, requestId);
  } catch {
    return undefined;
  }
  const key = read.ctx.idempotencyKey;
  if (key === undefined) return undefined;
  const c = keyClaim(op, req, key, read.fingerprintBody, { scope: "", organizationId: null });
  const first = apiKeyClaimStep(op, apiKey, c, (p) => {
    call.principal = p;
  });
  try {
    const outcome = await runIdempotent(op, fn, read.ctx, c, first, async () => ({ body: parseBody(op, read.rawBody) }));
    return await answerIdempotent(outcome, req, read.rawBody, rawParams, requestId, options);
  } finally {
    await touchStaleKey(first.stale, requestId);
  }
}
