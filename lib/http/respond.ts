import { AppError, errorBody } from "@/lib/errors";
import { logger } from "@/lib/log";
import type { Operation } from "@/lib/http/operation";
import type { Reply } from "@/lib/http/handler-context";
import { stringifyJson } from "@/lib/http/json";
import { withRawText } from "@/lib/http/raw";
import * as idem from "@/lib/idempotency";
import { isDatabaseUnavailable, isUniqueViolation, isWriteConflict } from "@/lib/db/errors";

// The pipeline's answers: a handler's reply, a stored (replayed) response, an error envelope.

export function toResponse(reply: Reply | Response, requestId: string): Response {
  if (reply instanceof Response) {
    reply.headers.set("x-request-id", requestId);
    return reply;
  }
  const res = storedToResponse(toStored(reply), requestId);
  for (const ck of reply.cookies ?? []) res.headers.append("set-cookie", ck);
  return res;
}

// A reply as stored and sent: the body serialized once (empty for none).
export function toStored(reply: { status: number; body?: unknown; headers?: Record<string, string> }): idem.StoredResponse {
  return { status: reply.status, body: reply.body === undefined ? "" : stringifyJson(reply.body), headers: reply.headers ?? {} };
}

export function storedToResponse(s: idem.StoredResponse, requestId: string): Response {
  const headers = new Headers(s.headers);
  headers.set("x-request-id", requestId);
  headers.set("cache-control", "no-store");
  if (s.status === 204 || s.body === "") return new Response(null, { status: s.status, headers });
  headers.set("content-type", "application/json; charset=utf-8");
  return withRawText(new Response(s.body, { status: s.status, headers }), s.body);
}

export function replayResponse(s: idem.StoredResponse, requestId: string): Response {
  const res = storedToResponse(s, requestId);
  res.headers.set("idempotent-replayed", "true");
  return res;
}

// An error as the storable response of an Idempotency-Key; an error that must not be stored
// (5xx, 409, 429) is rethrown.
export async function storableError(err: unknown, requestId: string, op: Operation): Promise<idem.StoredResponse> {
  const res = errorResponse(err, requestId, op);
  if (!idem.isStorable(res.status)) throw err;
  return { status: res.status, body: await res.text(), headers: pickHeaders(res, ["retry-after"]) };
}

// Any error as the envelope `{ error: { code, message } }`; database errors by their meaning,
// anything else 500 (logged, never shown).
export function errorResponse(err: unknown, requestId: string, op?: Operation): Response {
  let e: AppError;
  if (err instanceof AppError) e = err;
  else if (isUniqueViolation(err)) e = new AppError("duplicate", "a resource with these identifiers already exists");
  // A deadlock or serialization failure rolled the whole transaction back: nothing
  // changed, and the client may re-read and retry (never a 500).
  else if (isWriteConflict(err)) e = new AppError("version_conflict", "a concurrent change conflicted with this one; nothing was changed, re-read and retry");
  // The database is down, restarting or out of connections: nothing was committed (a
  // commit that fails is not acknowledged), and the client should come back shortly.
  else if (isDatabaseUnavailable(err)) {
    logger().warn({ requestId, route: op?.path, err: errorSummary(err).message }, "database unavailable");
    e = new AppError("service_unavailable", "the database is unavailable; nothing was changed, retry shortly", { headers: { "Retry-After": "5" } });
  } else {
    logger().error({ requestId, route: op?.path, err: errorSummary(err) }, "unhandled error");
    e = new AppError("internal_error", "an internal error occurred");
  }
  const headers = new Headers({ ...e.headers, "content-type": "application/json; charset=utf-8", "x-request-id": requestId, "cache-control": "no-store" });
  return new Response(stringifyJson(errorBody(e.code, e.message)), { status: e.status, headers });
}

function errorSummary(err: unknown) {
  if (err instanceof Error) return { name: err.name, message: err.message, stack: err.stack };
  return { message: String(err) };
}

function pickHeaders(res: Response, names: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const n of names) {
    const v = res.headers.get(n);
    if (v !== null) out[n] = v;
  }
  return out;
}
