import { randomUUID } from "node:crypto";
import type { z } from "zod";
import { db, transaction, type Tx } from "@/lib/db/client";
import { env } from "@/lib/env";
import { AppError, errorBody } from "@/lib/errors";
import { logger } from "@/lib/log";
import { safeEqual } from "@/lib/crypto";
import type { Operation } from "@/lib/http/operation";
import { parseJsonBody, parseMultipart, readBodyLimited, rejectUnstorable, type UploadedFile } from "@/lib/http/body";
import { parseOrThrow } from "@/lib/http/validation";
import { stringifyJson } from "@/lib/http/json";
import { isCrossOrigin } from "@/lib/http/cookies";
import { rawBodyOf, withRawText } from "@/lib/http/raw";
import { clientAddress } from "@/lib/http/client-address";
import * as idem from "@/lib/idempotency";
import { requestSessionToken } from "@/lib/auth/session-cookie";
import { resolveSession } from "@/lib/auth/resolve-session";
import { apiKeyLookup, apiKeyPrincipal, apiKeyRow, isStaleUse, resolveApiKey, touchApiKey, type ApiKeyRow } from "@/lib/auth/resolve-api-key";
import { ROLE_PERMISSIONS } from "@/lib/auth/permissions";
import type { AnonymousPrincipal, ApiKeyPrincipal, CronPrincipal, IssuerPrincipal, Principal, RecipientPrincipal, UserPrincipal } from "@/lib/auth/principal";
import { authenticateRecipient } from "@/lib/recipients/authenticate-recipient";
import { authenticateAccount } from "@/lib/account-links/authenticate-account";
import { recipientRateLimited } from "@/lib/recipients/exchange-options";
import { hitRateLimit, type CountedAttempt } from "@/lib/rate-limit";
import { isDatabaseUnavailable, isUniqueViolation, isWriteConflict, raisedMessage } from "@/lib/db/errors";

// The request pipeline every route handler goes through (its order: docs/architecture.md,
// "Layers"); handlers receive parsed input and return a Reply, errors are AppError.

type Infer<S> = S extends z.ZodType ? z.output<S> : undefined;

export type Reply = {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  cookies?: string[]; // Set-Cookie values; never stored with an idempotent response
  // For idempotent operations whose reply holds a secret shown once (a new API key): what
  // a replay of the same Idempotency-Key answers instead of the reply itself.
  stored?: { status: number; body?: unknown };
};

export type HandlerContext<O extends Operation, P extends Principal = PrincipalFor<O>> = {
  req: Request;
  requestId: string;
  principal: P;
  params: Infer<O["params"]>;
  query: Infer<O["query"]>;
  body: O["multipart"] extends z.ZodType ? z.output<O["multipart"]> : Infer<O["body"]>;
  files: Record<string, UploadedFile>;
  // POST and DELETE: the one transaction of the request (with an Idempotency-Key it also
  // stores the response). GET: the plain database handle (reads need no transaction).
  tx: Tx;
  idempotencyKey?: string;
  clientIp: string;
  // what HandleOptions.countAttempt counted, for the handler to release
  attempt?: CountedAttempt;
  // what HandleOptions.beforeTransaction returned (an uploaded file parsed off the request
  // thread, lib/uploads/parse-pool.ts)
  prepared?: unknown;
};

// The principal a handler receives follows from the operation's declared auth mode.
export type PrincipalFor<O extends Operation> = O["auth"] extends "issuer"
  ? IssuerPrincipal
  : O["auth"] extends "issuer_session"
    ? UserPrincipal
    : O["auth"] extends "recipient"
      ? RecipientPrincipal
      : O["auth"] extends "cron"
        ? CronPrincipal
        : AnonymousPrincipal;

export type HandleOptions = {
  // For auth "none" with idempotency: the scope of the key (e.g. derived from the body).
  idempotencyScope?: (req: Request, body: unknown, rawParams: Record<string, string>) => Promise<string>;
  // For idempotent operations whose reply sets cookies (cookies are never stored with the
  // response): on a replay, the Set-Cookie values to send again (e.g. a fresh recipient
  // session for a replayed session exchange). `body` is the request body before validation.
  replayCookies?: (req: Request, body: unknown, rawParams: Record<string, string>, stored: idem.StoredResponse) => Promise<string[]>;
  // Slow checks that need no database (e.g. a DNS lookup, parsing an uploaded file), run
  // with the validated body and the files before the transaction opens, so they never hold
  // a connection or a row lock; what they return is the handler's `prepared`. An AppError
  // thrown here is answered (and stored for idempotent replay) like any other.
  beforeTransaction?: (body: unknown, ctx: { files: Record<string, UploadedFile> }) => Promise<unknown>;
  // Only for a mutation whose effect is a single statement and whose refusal must still
  // write (sign-in: its failure counter outlives the refused attempt): run without the
  // request transaction, `tx` being the plain database handle.
  withoutTransaction?: true;
  // For a check whose refusals are throttled although the refusal rolls the request's
  // transaction back (the password change's current_password): counts the attempt with the
  // validated body, before the transaction opens and outside it (the embedded database
  // serves one transaction at a time: a write beside the open one would wait for it), and
  // may refuse it (429). The handler gets it as `attempt` and releases it in its
  // transaction when the attempt is not to count. A replayed or conflicting Idempotency-Key
  // leaves it counted.
  countAttempt?: (ctx: { principal: Principal; body: unknown; params: unknown; clientIp: string }) => Promise<CountedAttempt>;
};

type RouteContext = { params: Promise<Record<string, string | string[]>> };

export function handle<O extends Operation>(op: O, fn: (ctx: HandlerContext<O>) => Promise<Reply | Response>, options: HandleOptions = {}) {
  return async (req: Request, routeCtx: RouteContext): Promise<Response> => {
    const started = performance.now();
    const requestId = sanitizeRequestId(req.headers.get("x-request-id")) ?? randomUUID();
    let principal: Principal = { kind: "anonymous" };
    let response: Response | undefined;
    try {
      const rawParams = Object.fromEntries(Object.entries((await routeCtx?.params) ?? {}).map(([k, v]) => [k, Array.isArray(v) ? v.join("/") : v]));
      if (op.requestMarker && req.headers.get("x-service-request") !== "1") {
        throw new AppError("request_marker_required", "the X-Service-Request: 1 header is required on this call");
      }
      assertNotCrossSite(op, req);
      const apiKey = apiKeyClaimable(op, req, options);
      if (apiKey !== undefined) {
        response = await withApiKeyClaim(op, fn as never, req, rawParams, apiKey, requestId, options, (p) => (principal = p));
      }
      if (!response) {
        principal = await authenticate(op, req, rawParams);
        authorize(op, principal);
        await enforceRateLimit(op, principal);
        const pre = await prepare(op, req, rawParams);
        const baseCtx = {
          req,
          requestId,
          principal,
          params: pre.params,
          query: pre.query,
          files: pre.files,
          idempotencyKey: pre.idempotencyKey,
          clientIp: pre.clientIp,
        };
        if (!pre.idempotencyKey) {
          const body = parseBody(op, pre.rawBody);
          const prepared = await options.beforeTransaction?.(body, { files: pre.files });
          const attempt = await options.countAttempt?.({ principal, body, params: pre.params, clientIp: pre.clientIp });
          const reply =
            op.method === "GET" || options.withoutTransaction
              ? await fn({ ...baseCtx, body, attempt, prepared, tx: db() } as never)
              : await transaction((tx) => fn({ ...baseCtx, body, attempt, prepared, tx } as never), op.transactionTimeoutMs);
          response = toResponse(reply, requestId);
        } else {
          const scope = options.idempotencyScope ? await options.idempotencyScope(req, pre.rawBody, rawParams) : scopeOf(principal);
          const c = keyClaim(op, req, pre.idempotencyKey, pre.fingerprintBody, scope);
          response = await answerIdempotent(
            await executeIdempotent(op, fn as never, baseCtx, pre.rawBody, c, requestId, options),
            req,
            pre.rawBody,
            rawParams,
            requestId,
            options,
          );
        }
      }
    } catch (err) {
      response = errorResponse(err, requestId, op);
    }
    logger().info(
      {
        requestId,
        method: op.method,
        route: op.path,
        status: response.status,
        ms: Math.round(performance.now() - started),
        org: "organizationId" in principal ? principal.organizationId : undefined,
        principal: principal.kind,
      },
      "request",
    );
    return response;
  };
}

// What a request carries apart from its credential, checked before anything runs: path
// params (a bad id is 404), the Idempotency-Key, the body (size- and depth-bounded JSON, or
// multipart) and the query.
type Prepared = {
  params: unknown;
  idempotencyKey?: string;
  rawBody: unknown;
  files: Record<string, UploadedFile>;
  fingerprintBody: unknown;
  query: unknown;
  clientIp: string;
};

async function prepare(op: Operation, req: Request, rawParams: Record<string, string>): Promise<Prepared> {
  let params: unknown;
  if (op.params) {
    const r = op.params.safeParse(rawParams);
    if (!r.success) throw new AppError("not_found", "resource not found");
    params = r.data;
  }

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

  const rawQuery = Object.fromEntries(new URL(req.url).searchParams.entries());
  if (op.query) rejectUnstorable(rawQuery, "query");
  const query = op.query ? parseOrThrow(op.query, rawQuery, "query") : undefined;

  const clientIp = clientAddress(req.headers.get("x-forwarded-for"), env().TRUST_PROXY_HOPS);
  return { params, idempotencyKey, rawBody, files, fingerprintBody, query, clientIp };
}

function keyClaim(op: Operation, req: Request, key: string, fingerprintBody: unknown, scope: string): idem.KeyClaim {
  const path = new URL(req.url).pathname;
  return idem.keyClaim(scope, key, op.method, path, fingerprintBody);
}

async function answerIdempotent(
  outcome: { replay: idem.StoredResponse } | { response: Response },
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

// The API key of a request that may take the API-key shortcut (an issuer mutation with an
// Idempotency-Key, a Bearer key and its body in memory); else undefined: the steps one by one.
function apiKeyClaimable(op: Operation, req: Request, options: HandleOptions): string | undefined {
  if (op.auth !== "issuer" || op.method === "GET" || !op.idempotent || op.multipart) return undefined;
  if (options.idempotencyScope || options.beforeTransaction || options.withoutTransaction || options.countAttempt) return undefined;
  if (env().API_RATE_LIMIT_PER_MINUTE > 0 || req.headers.get("idempotency-key") === null) return undefined;
  if (op.method !== "DELETE" && req.body !== null && rawBodyOf(req) === undefined) return undefined;
  return bearerToken(req.headers.get("authorization"));
}

// The API-key shortcut: key, claim and BEGIN in one write, the same answers as the ordinary
// order (undefined: left to it). docs/architecture.md, "Why: the API-key shortcut".
async function withApiKeyClaim(
  op: Operation,
  fn: (ctx: never) => Promise<Reply | Response>,
  req: Request,
  rawParams: Record<string, string>,
  apiKey: string,
  requestId: string,
  options: HandleOptions,
  onPrincipal: (p: ApiKeyPrincipal) => void,
): Promise<Response | undefined> {
  let pre: Prepared;
  try {
    pre = await prepare(op, req, rawParams);
  } catch {
    return undefined;
  }
  if (pre.idempotencyKey === undefined) return undefined;
  const keyLookup = apiKeyLookup(apiKey);
  if (keyLookup === undefined) return undefined; // a malformed route: the ordinary order refuses it
  const c = keyClaim(op, req, pre.idempotencyKey, pre.fingerprintBody, "");
  const baseCtx: Record<string, unknown> = {
    req,
    requestId,
    params: pre.params,
    query: pre.query,
    files: pre.files,
    idempotencyKey: pre.idempotencyKey,
    clientIp: pre.clientIp,
  };
  let stale: ApiKeyRow | undefined;
  const claim: FirstClaim = {
    admitted: false,
    claim: async (tx) => {
      const rowSent = apiKeyRow(tx, keyLookup);
      const claimSent = idem.claimForApiKeyInTx(tx, keyLookup.hash, c.key, keyLookup.organizationId);
      claimSent.catch(() => undefined); // fails only with the transaction, answered below
      const row = await rowSent;
      const p = apiKeyPrincipal(row);
      if (!p) throw apiKeyRefused();
      if (row && isStaleUse(row)) stale = row;
      onPrincipal(p);
      authorize(op, p);
      baseCtx.principal = p;
      c.scope = scopeOf(p);
      claim.admitted = true;
      const claimRow = (await claimSent)[0];
      if (claimRow?.scope !== c.scope) throw new Error("the Idempotency-Key claim was made for another scope");
      return idem.claimed(claimRow, c);
    },
  };
  try {
    return await answerIdempotent(
      await executeIdempotent(op, fn, baseCtx, pre.rawBody, c, requestId, options, claim),
      req,
      pre.rawBody,
      rawParams,
      requestId,
      options,
    );
  } finally {
    if (stale) await touchApiKey(stale).catch((err: unknown) => logger().warn({ requestId, err: String(err) }, "could not record the API key's use"));
  }
}

// How the first transaction of an idempotent request claims its key when the credential
// has not been read yet (withApiKeyClaim); `admitted` once the credential passed: an error
// before that is the credential's, never stored as the key's response.
type FirstClaim = { admitted: boolean; claim: (tx: Tx) => Promise<idem.StoredResponse | undefined> };

// Claim, handler and stored response in one transaction; a handler's refusal is stored by a
// second, short one. docs/architecture.md, "Why: idempotency in one transaction".
async function executeIdempotent<O extends Operation>(
  op: O,
  fn: (ctx: never) => Promise<Reply | Response>,
  baseCtx: Record<string, unknown>,
  rawBody: unknown,
  c: idem.KeyClaim,
  requestId: string,
  options: HandleOptions,
  first?: FirstClaim,
): Promise<{ replay: idem.StoredResponse } | { response: Response }> {
  let body: unknown;
  let refused: unknown;
  let attempt: CountedAttempt | undefined;
  let prepared: unknown;
  try {
    body = parseBody(op, rawBody);
    prepared = await options.beforeTransaction?.(body, { files: baseCtx.files as Record<string, UploadedFile> });
    attempt = await options.countAttempt?.({ principal: baseCtx.principal as Principal, body, params: baseCtx.params, clientIp: baseCtx.clientIp as string });
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    refused = err;
  }
  // (A refusal that must not be stored is answered at once; with the credential still
  // unread, only once it has passed: inside the first transaction.)
  let refusal = refused && !first ? await storableError(refused, requestId, op) : undefined;
  const storeRefusal = async (tx: Tx) => {
    refusal ??= await storableError(refused, requestId, op);
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
      refused
        ? storeRefusal
        : async (tx) => {
            const reply = await fn({ ...baseCtx, body, attempt, prepared, tx } as never);
            if (reply instanceof Response) throw new Error("idempotent operations must return a Reply");
            cookies = reply.cookies;
            const stored = toStored(reply);
            await idem.storeInTx(tx, c, reply.stored ? toStored(reply.stored) : stored);
            return { stored };
          },
      first?.claim,
    );
  } catch (err) {
    if (refused || (first && !first.admitted) || !(err instanceof AppError) || !idem.isStorable(err.status)) throw err;
    refused = err;
  }
  if (!outcome) outcome = await inClaim(c, op, storeRefusal);
  if ("replay" in outcome) return outcome;
  const res = storedToResponse(outcome.stored, requestId);
  for (const ck of cookies ?? []) res.headers.append("set-cookie", ck);
  return { response: res };
}

type Claimed = { replay: idem.StoredResponse } | { stored: idem.StoredResponse };

// One transaction that holds the key's claim around `work`. A completed request with this
// key, found by the claim or committed by a concurrent request meanwhile (KeyTakenMeanwhile
// at the store), is replayed instead.
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
    const prior = err instanceof idem.KeyTakenMeanwhile ? await idem.lookup(db(), c) : undefined;
    if (prior) return { replay: prior };
    throw err;
  }
}

// A reply as stored and sent: the body serialized once (empty for none).
function toStored(reply: { status: number; body?: unknown; headers?: Record<string, string> }): idem.StoredResponse {
  return { status: reply.status, body: reply.body === undefined ? "" : stringifyJson(reply.body), headers: reply.headers ?? {} };
}

async function storableError(err: unknown, requestId: string, op: Operation): Promise<idem.StoredResponse> {
  const res = errorResponse(err, requestId, op);
  if (!idem.isStorable(res.status)) throw err;
  return { status: res.status, body: await res.text(), headers: pickHeaders(res, ["retry-after"]) };
}

function parseBody(op: Operation, rawBody: unknown): unknown {
  if (op.multipart) return parseOrThrow(op.multipart, rawBody, "form");
  if (op.body) return parseOrThrow(op.body, rawBody === undefined ? {} : rawBody, "body");
  if (rawBody !== undefined && !(typeof rawBody === "object" && rawBody !== null && Object.keys(rawBody).length === 0)) {
    throw new AppError("validation_failed", "body: this operation takes no request body");
  }
  return undefined;
}

async function authenticate(op: Operation, req: Request, rawParams: Record<string, string>): Promise<Principal> {
  switch (op.auth) {
    case "none":
      return { kind: "anonymous" };
    case "cron":
      return authenticateCron(req);
    case "recipient":
      if (op.recipientLink === "account") return authenticateAccount(req, rawParams);
      return authenticateRecipient(op.recipientLink ?? "single")(req, rawParams);
    case "issuer":
    case "issuer_session": {
      const authz = req.headers.get("authorization");
      if (authz !== null) {
        if (op.auth === "issuer_session") {
          throw new AppError("unauthenticated", "this endpoint accepts only an issuer session, not an API key");
        }
        const token = bearerToken(authz);
        const p = token ? await resolveApiKey(token) : undefined;
        if (!p) throw apiKeyRefused();
        return p;
      }
      const token = requestSessionToken(req);
      const p = token ? await resolveSession(token) : undefined;
      if (!p) throw new AppError("unauthenticated", "sign in or send an API key (Authorization: Bearer)");
      return p;
    }
  }
}

// A mutation without an Authorization header is authenticated by a cookie (or is sign-in):
// a browser on another origin must not be able to send it (CSRF, login CSRF). It is accepted
// when it is application/json (a browser sends that cross-origin only after a CORS preflight,
// which this service never grants) or when it comes from our own origin
// (lib/http/cookies.ts, isCrossOrigin). Else 415 unsupported_media_type. docs/security.md.
function assertNotCrossSite(op: Operation, req: Request): void {
  if (op.method === "GET" || req.headers.get("authorization") !== null) return;
  const type = (req.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (type === "application/json" || !isCrossOrigin(req)) return;
  throw new AppError("unsupported_media_type", "a request from another origin must be application/json");
}

// The token of `Authorization: Bearer <token>` (API keys, CRON_SECRET).
function bearerToken(authorization: string | null): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "")?.[1];
}

const apiKeyRefused = () => new AppError("unauthenticated", "the API key is missing, unknown or revoked");

// For a scheduler holding CRON_SECRET: while none is configured the endpoint does not
// exist (404); any other credential is 401.
function authenticateCron(req: Request): CronPrincipal {
  const secret = env().CRON_SECRET;
  if (!secret) throw new AppError("not_found", "no such endpoint");
  const token = bearerToken(req.headers.get("authorization"));
  if (!token || !safeEqual(token, secret)) throw new AppError("unauthenticated", "send Authorization: Bearer <CRON_SECRET>");
  return { kind: "cron" };
}

function authorize(op: Operation, p: Principal): void {
  if (!op.permission) return;
  if (p.kind === "api_key" && !(p.scopes as readonly string[]).includes(op.permission)) {
    throw new AppError("insufficient_scope", `this API key lacks the ${op.permission} scope`);
  }
  if (p.kind === "user" && !ROLE_PERMISSIONS[p.role].includes(op.permission)) {
    throw new AppError("insufficient_permission", `the ${p.role} role lacks the ${op.permission} permission`);
  }
}

async function enforceRateLimit(op: Operation, p: Principal): Promise<void> {
  // A link holder's state-changing calls, per link (docs/security.md, "Bounds"); on by default.
  const perLink = env().RECIPIENT_RATE_LIMIT_PER_MINUTE;
  if (p.kind === "recipient" && op.method !== "GET" && perLink > 0) {
    const s = await hitRateLimit(`recipient:${p.paymentRequestId}`, 60, perLink);
    if (s.limited) throw recipientRateLimited(s.retryAfterSeconds);
  }
  const limit = env().API_RATE_LIMIT_PER_MINUTE;
  if (limit <= 0) return;
  const who = p.kind === "api_key" ? p.apiKeyId : p.kind === "user" ? p.userId : p.kind === "recipient" ? p.sessionId : undefined;
  if (!who) return;
  const s = await hitRateLimit(`api:${who}`, 60, limit);
  if (s.limited) {
    throw new AppError("rate_limited", "too many requests; slow down", { headers: { "Retry-After": String(s.retryAfterSeconds) } });
  }
}

function scopeOf(p: Principal): string {
  if (p.kind === "recipient") return `req:${p.paymentRequestId}`;
  if (p.kind === "api_key" || p.kind === "user") return `org:${p.organizationId}`;
  throw new Error("idempotent anonymous operations need an idempotencyScope");
}

function toResponse(reply: Reply | Response, requestId: string): Response {
  if (reply instanceof Response) {
    reply.headers.set("x-request-id", requestId);
    return reply;
  }
  const res = storedToResponse(toStored(reply), requestId);
  for (const ck of reply.cookies ?? []) res.headers.append("set-cookie", ck);
  return res;
}

function storedToResponse(s: idem.StoredResponse, requestId: string): Response {
  const headers = new Headers(s.headers);
  headers.set("x-request-id", requestId);
  headers.set("cache-control", "no-store");
  if (s.status === 204 || s.body === "") return new Response(null, { status: s.status, headers });
  headers.set("content-type", "application/json; charset=utf-8");
  return withRawText(new Response(s.body, { status: s.status, headers }), s.body);
}

function replayResponse(s: idem.StoredResponse, requestId: string): Response {
  const res = storedToResponse(s, requestId);
  res.headers.set("idempotent-replayed", "true");
  return res;
}

export function errorResponse(err: unknown, requestId: string, op?: Operation): Response {
  let e: AppError;
  const duplicateObligation = err instanceof AppError ? null : raisedMessage(err, "FO002");
  if (err instanceof AppError) e = err;
  // Migration 0021's guard: an external reference already naming a live obligation.
  else if (duplicateObligation !== null) e = new AppError("duplicate", duplicateObligation || "an obligation with this external_reference already exists");
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

function sanitizeRequestId(v: string | null): string | undefined {
  return v && /^[A-Za-z0-9._-]{1,100}$/.test(v) ? v : undefined;
}
