import type { z } from "zod";
import type { Tx } from "@/lib/db/client";
import type { Operation } from "@/lib/http/operation";
import type { UploadedFile } from "@/lib/http/body";
import type { StoredResponse } from "@/lib/idempotency";
import type { CountedAttempt } from "@/lib/rate-limit";
import type { AnonymousPrincipal, CronPrincipal, IssuerPrincipal, Principal, RecipientPrincipal, UserPrincipal } from "@/lib/auth/principal";

// The types the request pipeline (lib/http/handle.ts) and its steps share: what a handler
// receives and returns, typed by its operation declaration.

type Infer<S> = S extends z.ZodType ? z.output<S> : undefined;
export type ParamsOf<O extends Operation> = Infer<O["params"]>;
export type QueryOf<O extends Operation> = Infer<O["query"]>;
export type BodyOf<O extends Operation> = O["multipart"] extends z.ZodType ? z.output<O["multipart"]> : Infer<O["body"]>;

export type Reply = {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  cookies?: string[]; // Set-Cookie values; never stored with an idempotent response
  // For idempotent operations whose reply holds a secret shown once (a new API key): what
  // a replay of the same Idempotency-Key answers instead of the reply itself.
  stored?: { status: number; body?: unknown };
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

// What a request carries apart from its credential and body, checked before the handler
// runs (lib/http/steps/read-request.ts).
export type RequestContext<O extends Operation> = {
  req: Request;
  requestId: string;
  params: ParamsOf<O>;
  query: QueryOf<O>;
  files: Record<string, UploadedFile>;
  idempotencyKey?: string;
  clientIp: string;
};

// The validated body and what the options' steps made of it before the transaction
// (lib/http/steps/admit-body.ts).
export type Admitted<O extends Operation> = {
  body: BodyOf<O>;
  // what HandleOptions.countAttempt counted, for the handler to release
  attempt?: CountedAttempt;
  // what HandleOptions.beforeTransaction returned (an uploaded file parsed off the request
  // thread, lib/uploads/parse-pool.ts)
  prepared?: unknown;
};

export type HandlerContext<O extends Operation> = RequestContext<O> &
  Admitted<O> & {
    principal: PrincipalFor<O>;
    // POST and DELETE: the one transaction of the request (with an Idempotency-Key it also
    // stores the response). GET: the plain database handle (reads need no transaction).
    tx: Tx;
  };

export type Handler<O extends Operation> = (ctx: HandlerContext<O>) => Promise<Reply | Response>;

export type HandleOptions = {
  // For auth "none" with idempotency: the scope of the key (e.g. derived from the body).
  idempotencyScope?: (req: Request, body: unknown, rawParams: Record<string, string>) => Promise<string>;
  // For idempotent operations whose reply sets cookies (cookies are never stored with the
  // response): on a replay, the Set-Cookie values to send again (e.g. a fresh recipient
  // session for a replayed session exchange). `body` is the request body before validation.
  replayCookies?: (req: Request, body: unknown, rawParams: Record<string, string>, stored: StoredResponse) => Promise<string[]>;
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
