import type { z } from "zod";
import type { Tx } from "@/lib/db/client";
import type { Operation } from "@/lib/http/operation";
import type { UploadedFile } from "@/lib/http/body";
import type { CountedAttempt } from "@/lib/rate-limit";
import type { AnonymousPrincipal, CronPrincipal, IssuerPrincipal, Principal, RecipientPrincipal, UserPrincipal } from "@/lib/auth/principal";
import type { KeyScope, StoredResponse } from "@/lib/idempotency";

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

// The few endpoints' departures from the ordinary order; docs/architecture.md, "Why: the handler options".
export type HandleOptions = {
  // auth "none" with idempotency: the key's scope (e.g. derived from the body) and its
  // organization (a routed token's), or null when it names none
  idempotencyScope?: (req: Request, body: unknown, rawParams: Record<string, string>) => Promise<KeyScope>;
  // on a replay, the Set-Cookie values to send again (cookies are never stored); `body` unvalidated
  replayCookies?: (req: Request, body: unknown, rawParams: Record<string, string>, stored: StoredResponse) => Promise<string[]>;
  // slow checks without the database, before the transaction opens; the result is `prepared`
  beforeTransaction?: (body: unknown, ctx: { files: Record<string, UploadedFile> }) => Promise<unknown>;
  // a single-statement mutation whose refusal must still write (sign-in): `tx` is the plain handle
  withoutTransaction?: true;
  // counts a throttled attempt before and outside the transaction (may refuse: 429); the
  // handler gets it as `attempt` and releases it when it is not to count
  countAttempt?: (ctx: { principal: Principal; body: unknown; params: unknown; clientIp: string }) => Promise<CountedAttempt>;
};
