import { AppError } from "@/lib/errors";
import type { Operation } from "@/lib/http/operation";
import type { Admitted, BodyOf, HandleOptions, RequestContext } from "@/lib/http/handler-context";
import { parseOrThrow } from "@/lib/http/validation";
import type { Principal } from "@/lib/auth/principal";

// The body against the operation's schema, then the options' steps that need it before the
// transaction opens (HandleOptions.beforeTransaction, countAttempt).
export async function admitBody<O extends Operation>(
  op: O,
  rawBody: unknown,
  principal: Principal,
  ctx: RequestContext<O>,
  options: HandleOptions,
): Promise<Admitted<O>> {
  const body = parseBody(op, rawBody);
  const prepared = await options.beforeTransaction?.(body, { files: ctx.files });
  const attempt = await options.countAttempt?.({ principal, body, params: ctx.params, clientIp: ctx.clientIp });
  return { body, prepared, attempt };
}

export function parseBody<O extends Operation>(op: O, rawBody: unknown): BodyOf<O> {
  if (op.multipart) return parseOrThrow(op.multipart, rawBody, "form") as BodyOf<O>;
  if (op.body) return parseOrThrow(op.body, rawBody === undefined ? {} : rawBody, "body") as BodyOf<O>;
  if (rawBody !== undefined && !(typeof rawBody === "object" && rawBody !== null && Object.keys(rawBody).length === 0)) {
    throw new AppError("validation_failed", "body: this operation takes no request body");
  }
  return undefined as BodyOf<O>;
}
