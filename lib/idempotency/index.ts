import type { Tx } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { sha256Hex } from "@/lib/crypto";
import { env } from "@/lib/env";
import { db } from "@/lib/db";

// Idempotency-Key handling (IETF draft semantics, Stripe behaviour). A key is claimed INSIDE
// the transaction that carries the request's effects: a transaction-scoped advisory lock on
// (scope, key) tells a live concurrent claimant apart (409 idempotency_request_in_progress),
// and the completed record is inserted in that same transaction. So the record and the
// effects commit together or not at all, and a claimant that died, or whose transaction
// rolled back, leaves nothing behind: its lock goes with its connection and a retry runs at
// once (no lease to wait out).
export type StoredResponse = { status: number; body: string; headers: Record<string, string> };

export type KeyClaim = { scope: string; key: string; method: string; path: string; fingerprint: string };

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

// Recursion is safe here: request bodies are bounded in depth before they are parsed.
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

// The stored response of a completed request with this key, if any; 422 when the key was
// used for a different request. (Rows in state 'processing' were written by earlier
// versions, whose claim committed on its own: they hold no lock and count as free.)
export async function lookup(q: Tx, c: KeyClaim): Promise<StoredResponse | undefined> {
  const row = await q.idempotencyRecord.findUnique({ where: { scope_key: { scope: c.scope, key: c.key } } });
  if (!row || row.state !== "completed" || row.responseStatus === null || row.responseBody === null) return undefined;
  if (row.method !== c.method || row.path !== c.path || row.fingerprint !== c.fingerprint) {
    throw new AppError("idempotency_key_reused", "this Idempotency-Key was used with a different request");
  }
  return { status: row.responseStatus, body: row.responseBody, headers: (row.responseHeaders ?? {}) as Record<string, string> };
}

// Takes the key's transaction-scoped advisory lock, or answers 409 while another live
// transaction holds it. Released by the database at commit, rollback or disconnect.
export async function lockInTx(tx: Tx, c: KeyClaim): Promise<void> {
  const rows = await tx.$queryRaw<{ locked: boolean }[]>`
    SELECT pg_try_advisory_xact_lock(hashtextextended(${`idem\n${c.scope}\n${c.key}`}, 0)) AS locked`;
  if (!rows[0]?.locked) {
    throw new AppError("idempotency_request_in_progress", "a request with this Idempotency-Key is still being processed", {
      headers: { "Retry-After": "1" },
    });
  }
}

export async function storeInTx(tx: Tx, c: KeyClaim, r: StoredResponse): Promise<void> {
  const data = {
    method: c.method,
    path: c.path,
    fingerprint: c.fingerprint,
    state: "completed",
    responseStatus: r.status,
    responseBody: r.body,
    responseHeaders: r.headers,
    lockedUntil: new Date(),
    completedAt: new Date(),
  };
  await tx.idempotencyRecord.upsert({
    where: { scope_key: { scope: c.scope, key: c.key } },
    create: { scope: c.scope, key: c.key, ...data },
    update: { ...data, createdAt: new Date() },
  });
}

// Responses that must not be replayed (409, 429, 5xx) leave the key free for a retry.
export const isStorable = (status: number) => status < 500 && status !== 409 && status !== 429;

export async function pruneIdempotency(): Promise<number> {
  const cutoff = new Date(Date.now() - env().IDEMPOTENCY_RETENTION_HOURS * 3600_000);
  return (await db().idempotencyRecord.deleteMany({ where: { createdAt: { lt: cutoff } } })).count;
}
