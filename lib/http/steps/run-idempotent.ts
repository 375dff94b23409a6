import { db, transaction, type Tx } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import type { Operation } from "@/lib/http/operation";
import type { Admitted, Handler, HandleOptions, RequestContext } from "@/lib/http/handler-context";
import type { ClaimStep } from "@/lib/http/steps/claim";
import { replayResponse, storableError, storedToResponse, toStored } from "@/lib/http/respond";
import * as idem from "@/lib/idempotency";

type Outcome = { replay: idem.StoredResponse } | { response: Response };
type Claimed = { replay: idem.StoredResponse } | { stored: idem.StoredResponse };

// Claim, handler and stored response in one transaction; a handler's refusal is stored by a
// second, short one. docs/architecture.md, "Why: idempotency in one transaction".
export async function runIdempotent<O extends Operation>(
  op: O,
  fn: Handler<O>,
  ctx: RequestContext<O>,
  c: idem.KeyClaim,
  first: ClaimStep<O>,
  admit: () => Promise<Admitted<O>>,
): Promise<Outcome> {
  const admission = await admit().then(
    (admitted) => ({ admitted }),
    (err: unknown) => {
      if (!(err instanceof AppError)) throw err;
      return { refused: err };
    },
  );
  let refused: unknown = "refused" in admission ? admission.refused : undefined;
  // (A refusal that must not be stored is answered at once; with the credential still
  // unread, only once it has passed: inside the first transaction.)
  let refusal = refused && first.principal ? await storableError(refused, ctx.requestId, op) : undefined;
  const storeRefusal = async (tx: Tx) => {
    refusal ??= await storableError(refused, ctx.requestId, op);
    const stored = refusal;
    await idem.storeInTx(tx, c, stored);
    return { stored };
  };
  let cookies: string[] | undefined;
  let outcome: Claimed | undefined;
  try {
    outcome = await inClaim(
      c,
      op,
      "refused" in admission
        ? storeRefusal
        : async (tx) => {
            const principal = first.principal;
            if (!principal) throw new Error("the claim step named no principal");
            const reply = await fn({ ...ctx, ...admission.admitted, principal, tx });
            if (reply instanceof Response) throw new Error("idempotent operations must return a Reply");
            cookies = reply.cookies;
            const stored = toStored(reply);
            await idem.storeInTx(tx, c, reply.stored ? toStored(reply.stored) : stored);
            return { stored };
          },
      first.claim,
    );
  } catch (err) {
    if (refused || !first.principal || !(err instanceof AppError) || !idem.isStorable(err.status)) throw err;
    refused = err;
  }
  if (!outcome) outcome = await inClaim(c, op, storeRefusal);
  if ("replay" in outcome) return outcome;
  const res = storedToResponse(outcome.stored, ctx.requestId);
  for (const ck of cookies ?? []) res.headers.append("set-cookie", ck);
  return { response: res };
}

// One transaction that holds the key's claim around `work`. A completed request with this
// key, found by the claim or committed by a concurrent request meanwhile, is replayed
// instead: the store finds it (KeyTakenMeanwhile), or, when the work failed with an answer
// that is never stored (a 409 such as `duplicate`: the concurrent request's own effect,
// committed after the claim's snapshot), a read after the rollback does.
async function inClaim(
  c: idem.KeyClaim,
  op: Operation,
  work: (tx: Tx) => Promise<{ stored: idem.StoredResponse }>,
  claim: (tx: Tx) => Promise<idem.StoredResponse | undefined> = (tx) => idem.claimInTx(tx, c),
): Promise<Claimed> {
  try {
    return await transaction(async (tx): Promise<Claimed> => {
      const prior = await claim(tx);
      return prior ? { replay: prior } : work(tx);
    }, op.transactionTimeoutMs);
  } catch (err) {
    const meanwhile = err instanceof idem.KeyTakenMeanwhile || (err instanceof AppError && !idem.isStorable(err.status));
    const prior = meanwhile ? await idem.lookup(db(), c) : undefined;
    if (prior) return { replay: prior };
    throw err;
  }
}

// The outcome as the response; a replay with the cookies HandleOptions.replayCookies issues anew.
export async function answerIdempotent(
  outcome: Outcome,
  req: Request,
  rawBody: unknown,
  rawParams: Record<string, string>,
  requestId: string,
  options: HandleOptions,
): Promise<Response> {
  if (!("replay" in outcome)) return outcome.response;
  const response = replayResponse(outcome.replay, requestId);
  for (const ck of options.replayCookies ? await options.replayCookies(req, rawBody, rawParams, outcome.replay) : []) {
    response.headers.append("set-cookie", ck);
  }
  return response;
}
