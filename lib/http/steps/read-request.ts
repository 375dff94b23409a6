import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import type { Operation } from "@/lib/http/operation";
import type { ParamsOf, QueryOf, RequestContext } from "@/lib/http/handler-context";
import { parseJsonBody, parseMultipart, readBodyLimited, rejectUnstorable, type UploadedFile } from "@/lib/http/body";
import { parseOrThrow } from "@/lib/http/validation";
import { clientAddress } from "@/lib/http/client-address";
import * as idem from "@/lib/idempotency";

// The route's path params with catch-all segments joined (`[...path]` → "a/b").
export async function routeParams(routeCtx: { params: Promise<Record<string, string | string[]>> } | undefined): Promise<Record<string, string>> {
  return Object.fromEntries(Object.entries((await routeCtx?.params) ?? {}).map(([k, v]) => [k, Array.isArray(v) ? v.join("/") : v]));
}

export type RequestRead<O extends Operation> = {
  ctx: RequestContext<O>;
  rawBody: unknown; // validated later (lib/http/steps/admit-body.ts)
  fingerprintBody: unknown; // what the Idempotency-Key's fingerprint covers
};

// What a request carries apart from its credential, checked in this order: path params (a
// bad id is 404), the Idempotency-Key, the body (size- and depth-bounded JSON, or
// multipart) and the query.
export async function readRequest<O extends Operation>(op: O, req: Request, rawParams: Record<string, string>, requestId: string): Promise<RequestRead<O>> {
  const params = parseParams(op, rawParams);

  const keyHeader = req.headers.get("idempotency-key");
  const idempotencyKey = op.idempotent === "required" || (op.idempotent === "optional" && keyHeader !== null) ? idem.validateKey(keyHeader) : undefined;

  let rawBody: unknown;
  let files: Record<string, UploadedFile> = {};
  let fingerprintBody: unknown;
  if (op.multipart) {
    const buf = await readBodyLimited(req, env().MAX_UPLOAD_BYTES + 64 * 1024);
    const parsed = await parseMultipart(req, buf);
    rawBody = parsed.fields;
    files = parsed.files;
    // each file's SHA-256 as the worker computed it (the same digest as before: replays match)
    fingerprintBody = {
      fields: parsed.fields,
      files: Object.fromEntries(Object.entries(files).map(([k, f]) => [k, { name: f.name, sha256: f.sha256 }])),
    };
  } else if (op.method !== "GET" && op.method !== "DELETE") {
    rawBody = parseJsonBody(await readBodyLimited(req, env().MAX_JSON_BYTES));
    fingerprintBody = rawBody;
  }

  const query = parseQuery(op, req);
  const clientIp = clientAddress(req.headers.get("x-forwarded-for"), env().TRUST_PROXY_HOPS);
  return { ctx: { req, requestId, params, query, files, idempotencyKey, clientIp }, rawBody, fingerprintBody };
}

function parseParams<O extends Operation>(op: O, rawParams: Record<string, string>): ParamsOf<O> {
  if (!op.params) return undefined as ParamsOf<O>;
  const r = op.params.safeParse(rawParams);
  if (!r.success) throw new AppError("not_found", "resource not found");
  return r.data as ParamsOf<O>;
}

function parseQuery<O extends Operation>(op: O, req: Request): QueryOf<O> {
  if (!op.query) return undefined as QueryOf<O>;
  const rawQuery = Object.fromEntries(new URL(req.url).searchParams.entries());
  rejectUnstorable(rawQuery, "query");
  return parseOrThrow(op.query, rawQuery, "query") as QueryOf<O>;
}
