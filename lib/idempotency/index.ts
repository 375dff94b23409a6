import { db, type Tx } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { sha256Hex } from "@/lib/crypto";
import { env } from "@/lib/env";

// Idempotency-Key handling (IETF draft semantics, Stripe behaviour), enforced by the
// database: the (scope, key) primary key decides which concurrent request executes.
// The owner's effects and its stored response commit in one transaction (completeInTx),
// so a crash can never leave an effect without its record or a record without its effect.
export const LEASE_SECONDS = 60;

export type StoredResponse = { status: number; body: string; headers: Record<string, string> };

export type Claim =
  | { kind: "execute"; scope: string; key: string }
  | { kind: "replay"; response: StoredResponse };

export function validateKey(key: string | null): string {
  if (key === null) throw new AppError("idempotency_key_required", "the Idempotency-Key header is required");
  if (key.length < 8 || key.length > 200) {
    throw new AppError("idempotency_key_required", "the Idempotency-Key header must be 8 to 200 characters");
  }
  return key;
}

export function fingerprint(method: string, path: string, body: unknown): string {
  return sha256Hex(`${method}\n${path}\n${canonicalJson(body)}`);
}

function canonicalJson(v: unknown): string {
  if (v === undefined) return "";
  if (v === null || typeof v !== "object") return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(",")}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`)
    .join(",")}}`;
}

export async function claim(input: { scope: string; key: string; method: string; path: string; fingerprint: string }): Promise<Claim> {
  const { scope, key, method, path } = input;
  const inserted = await db().$queryRaw<{ key: string }[]>`
    INSERT INTO idempotency_records (scope, key, method, path, fingerprint, state, locked_until)
    VALUES (${scope}, ${key}, ${method}, ${path}, ${input.fingerprint}, 'processing', now() + make_interval(secs => ${LEASE_SECONDS}))
    ON CONFLICT (scope, key) DO NOTHING
    RETURNING key`;
  if (inserted.length === 1) return { kind: "execute", scope, key };

  const row = await db().idempotencyRecord.findUnique({ where: { scope_key: { scope, key } } });
  if (!row) return claim(input); // expired and pruned between the two statements
  if (row.method !== method || row.path !== path || row.fingerprint !== input.fingerprint) {
    throw new AppError("idempotency_key_reused", "this Idempotency-Key was used with a different request");
  }
  if (row.state === "completed" && row.responseStatus !== null && row.responseBody !== null) {
    return {
      kind: "replay",
      response: { status: row.responseStatus, body: row.responseBody, headers: (row.responseHeaders ?? {}) as Record<string, string> },
    };
  }
  // A processing record whose lease ran out belongs to a request that died: take it over.
  const taken = await db().$executeRaw`
    UPDATE idempotency_records SET locked_until = now() + make_interval(secs => ${LEASE_SECONDS})
    WHERE scope = ${scope} AND key = ${key} AND state = 'processing' AND locked_until < now()`;
  if (taken === 1) return { kind: "execute", scope, key };
  throw new AppError("idempotency_request_in_progress", "a request with this Idempotency-Key is still being processed", {
    headers: { "Retry-After": "1" },
  });
}

export async function completeInTx(tx: Tx, c: { scope: string; key: string }, r: StoredResponse): Promise<void> {
  await tx.idempotencyRecord.update({
    where: { scope_key: { scope: c.scope, key: c.key } },
    data: { state: "completed", responseStatus: r.status, responseBody: r.body, responseHeaders: r.headers, completedAt: new Date() },
  });
}

// Responses that must not be replayed (409, 429, 5xx) release the key for a retry.
export const isStorable = (status: number) => status < 500 && status !== 409 && status !== 429;

export async function completeOutsideTx(c: { scope: string; key: string }, r: StoredResponse): Promise<void> {
  if (isStorable(r.status)) await completeInTx(db(), c, r);
  else await release(c);
}

export async function release(c: { scope: string; key: string }): Promise<void> {
  await db().idempotencyRecord.deleteMany({ where: { scope: c.scope, key: c.key, state: "processing" } });
}

export async function pruneIdempotency(): Promise<number> {
  const cutoff = new Date(Date.now() - env().IDEMPOTENCY_RETENTION_HOURS * 3600_000);
  return (await db().idempotencyRecord.deleteMany({ where: { createdAt: { lt: cutoff } } })).count;
}
