// The one error type of the service. Domain code throws AppError; the request pipeline
// (lib/http/respond.ts) turns it into `{ error: { code, message } }` with the status of
// ERROR_STATUS. Anything else becomes 500 internal_error with no detail in the body.
export const ERROR_STATUS = {
  malformed_request: 400,
  idempotency_key_required: 400,
  unauthenticated: 401,
  insufficient_permission: 403,
  insufficient_scope: 403,
  request_marker_required: 403,
  not_found: 404,
  method_not_allowed: 405,
  version_conflict: 409,
  suggestion_stale: 409,
  idempotency_request_in_progress: 409,
  invalid_state: 409,
  delivery_not_failed: 409,
  duplicate: 409,
  payment_request_revoked: 410,
  payment_request_expired: 410,
  invitation_expired: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  validation_failed: 422,
  idempotency_key_reused: 422,
  allocation_exceeds_remaining: 422,
  currency_mismatch: 422,
  payment_terms_mismatch: 422,
  direction_mismatch: 422,
  statement_unreadable: 422,
  einvoice_unreadable: 422,
  nothing_payable: 422,
  rate_limited: 429,
  internal_error: 500,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, opts: { headers?: Record<string, string>; cause?: unknown } = {}) {
    super(message, { cause: opts.cause });
    this.name = "AppError";
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.headers = opts.headers ?? {};
  }
}

// An AppError whose message names what only a read after its transaction rolled back can find
// (the obligation that holds an external reference a unique index refused to give twice):
// the pipeline words it (lib/http/handle.ts) before answering; without a word, `message` stands.
export class AppErrorWordedLater extends AppError {
  readonly word: () => Promise<string | null>;

  constructor(code: ErrorCode, message: string, word: () => Promise<string | null>, opts: { cause?: unknown } = {}) {
    super(code, message, opts);
    this.word = word;
  }
}

// `err` with its message worded, when it is an AppErrorWordedLater (a failed read keeps its message).
export async function wordedError(err: unknown): Promise<unknown> {
  if (!(err instanceof AppErrorWordedLater)) return err;
  const message = await err.word().catch(() => null);
  return message ? new AppError(err.code, message, { headers: err.headers, cause: err }) : err;
}

export const notFound = (what = "resource") => new AppError("not_found", `${what} not found`);

export function errorBody(code: ErrorCode, message: string) {
  return { error: { code, message } };
}
