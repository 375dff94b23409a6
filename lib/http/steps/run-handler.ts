import { db, transaction } from "@/lib/db/client";
import type { Operation } from "@/lib/http/operation";
import type { Admitted, Handler, HandleOptions, PrincipalFor, Reply, RequestContext } from "@/lib/http/handler-context";

// A request without an Idempotency-Key: a GET (or a HandleOptions.withoutTransaction
// mutation) on the plain database handle, any other mutation in one transaction.
export function runHandler<O extends Operation>(
  op: O,
  fn: Handler<O>,
  ctx: RequestContext<O>,
  principal: PrincipalFor<O>,
  admitted: Admitted<O>,
  options: HandleOptions,
): Promise<Reply | Response> {
  if (op.method === "GET" || options.withoutTransaction) return fn({ ...ctx, ...admitted, principal, tx: db() });
  return transaction((tx) => fn({ ...ctx, ...admitted, principal, tx }), op.transactionTimeoutMs);
}
