import { sql as raw } from "kysely";
import type { Tx } from "@/lib/db/client";
import { type Query, statement } from "@/lib/db/query";
import { AppError } from "@/lib/errors";
import { hmacBase64Url, isSealed, openSecret, sealSecret, sha256Hex } from "@/lib/crypto";
import { env } from "@/lib/env";
import { db } from "@/lib/db/client";

// Idempotency-Key handling (IETF draft semantics, Stripe behaviour). A key is claimed INSIDE
// the transaction that carries the request's effects: a transaction-scoped advisory lock on
// (scope, key) tells a live concurrent claimant apart (409 idempotency_request_in_progress),
// and the completed record is inserted in that same transaction. So the record and the
// effects commit together or not at all, and a claimant that died, or whose transaction
// rolled back, leaves nothing behind: its lock goes with its connection and a retry runs at
// once (no lease to wait out).
export type StoredResponse = { status: number; body: string; headers: Record<string, string> };

export type KeyClaim = {
  scope: string;
  // The scope's organization (the record's shard on Citus): NO_ORGANIZATION for a scope of none.
  organizationId: string;
  key: string;
  method: string;
  path: string;
  fingerprint: string;
  // The plain SHA-256 that earlier versions stored (see `fingerprint`), computed only for such a record.
  legacyFingerprint?: () => string;
};

export function validateKey(key: string | null): string {
  if (key === null) throw new AppError("idempotency_key_required", "the Idempotency-Key header is required");
  if (key.length < 8 || key.length > 200) {
    throw new AppError("idempotency_key_required", "the Idempotency-Key header must be 8 to 200 characters");
  }
  return key;
}

// The request's fingerprint, stored with its response: keyed under APP_SECRET ("h1:" + HMAC),
// because bodies carry secrets (a new member's password, a password change, a webhook signing
// secret) and a plain digest of a body whose other fields are known would be an unsalted
// hash of the secret, open to guessing offline from a copy of the database. Records stored by
// earlier versions hold the plain SHA-256 (no prefix): `sameRequest` still accepts it.
export const fingerprint = (method: string, path: string, body: unknown): string =>
  keyClaim({ scope: "", organizationId: null }, "", method, path, body).fingerprint;

// The organization of a record whose scope names none (the operator's password-reset link, a
// token of the old form): the nil UUID, a bucket of its own (migration 0031).
export const NO_ORGANIZATION = "00000000-0000-0000-0000-000000000000";

const FINGERPRINT_PREFIX = "h1:";
const requestText = (method: string, path: string, body: unknown) => `${method}\n${path}\n${canonicalJson(body)}`;

// Whose a key is: the scope (`org:<id>`, `req:<id>`, an anonymous exchange's token hash) and
// its organization, or null when it names none.
export type KeyScope = { scope: string; organizationId: string | null };

export function keyClaim(s: KeyScope, key: string, method: string, path: string, body: unknown): KeyClaim {
  const text = requestText(method, path, body);
  return {
    scope: s.scope,
    organizationId: s.organizationId ?? NO_ORGANIZATION,
    key,
    method,
    path,
    fingerprint: `${FINGERPRINT_PREFIX}${hmacBase64Url("idempotency-fingerprint", text)}`,
    legacyFingerprint: () => sha256Hex(text),
  };
}

function sameRequest(storedFingerprint: string | null, c: KeyClaim): boolean {
  if (storedFingerprint === c.fingerprint) return true;
  return storedFingerprint !== null && !storedFingerprint.startsWith(FINGERPRINT_PREFIX) && storedFingerprint === c.legacyFingerprint?.();
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

// Claims the key in the request's transaction, in ONE statement: the key's transaction-scoped
// advisory lock (409 idempotency_request_in_progress while another live transaction holds
// it; released by the database at commit, rollback or disconnect) and the stored response
// of a completed request with this key, if any (422 when the key was used for a different
// request). The row is read with the statement's snapshot, taken before the lock was
// granted: a claimant that committed in between is not seen here, but its row makes
// storeInTx find the key taken, which rolls this transaction back (KeyTakenMeanwhile) and
// the pipeline replays instead. (Rows in state 'processing' were written by earlier
// versions, whose claim committed on its own: they hold no lock and count as free.)
export async function claimInTx(tx: Tx, c: KeyClaim): Promise<StoredResponse | undefined> {
  const rows = await claimStatement.rows(tx, { lock: lockText(c.scope, c.key), org: c.organizationId, scope: c.scope, key: c.key });
  return claimed(rows[0], c);
}

// The record's columns a claim reads (`r`: idempotency_records).
const RECORD = ["r.state", "r.method", "r.path", "r.fingerprint", "r.response_status", "r.response_body", "r.response_headers"] as const;

const claimStatement = statement((q, p: { lock: string; org: string; scope: string; key: string }) =>
  q
    .selectFrom(raw<{ x: number }>`(SELECT 1)`.as("one"))
    .leftJoin("idempotency_records as r", (j) => j.on("r.organization_id", "=", p.org).on("r.scope", "=", p.scope).on("r.key", "=", p.key))
    .select([raw<boolean>`pg_try_advisory_xact_lock(hashtextextended(${p.lock}, 0))`.as("locked"), ...RECORD]),
);

// The same claim for a request authenticated by an API key, made before the key's row has
// been read: the scope (`org:<organization id>`, scopeOf in lib/http/steps/claim.ts) is taken
// from the key's row inside the statement, so the claim can travel with the credential's own
// statement in one write. No row when no key has this digest (the caller refuses the
// credential first, and its rollback drops nothing: no lock was taken). The lock and the
// record are the very ones claimInTx takes and reads for that scope.
// `organizationId`: the key's route (lib/auth/token-routing.ts), which the key's row must match.
export function claimForApiKeyInTx(tx: Tx, keyHash: string, key: string, organizationId?: string): Promise<ClaimRow[]> {
  return organizationId === undefined
    ? claimForApiKeyStatement.rows(tx, { keyHash, key })
    : claimForRoutedApiKeyStatement.rows(tx, { keyHash, key, organizationId });
}

// The claim found from an API key's hash (and its route, when the key carries one: `routed`,
// a shape of its own, since a placeholder's value is not known when the statement is built).
const claimForKeys = (q: Query, p: { keyHash: string; key: string; organizationId?: string }, routed: boolean) =>
  q
    .selectFrom((eb) =>
      eb
        .selectFrom("api_keys as k")
        .select(["k.organization_id", raw<string>`'org:' || k.organization_id::text`.as("scope")])
        .where("k.key_hash", "=", p.keyHash)
        .$if(routed, (w) => w.where("k.organization_id", "=", p.organizationId as string))
        .as("s"),
    )
    .leftJoin("idempotency_records as r", (j) =>
      j.onRef("r.organization_id", "=", "s.organization_id").onRef("r.scope", "=", "s.scope").on("r.key", "=", p.key),
    )
    .select([
      raw<boolean>`pg_try_advisory_xact_lock(hashtextextended('idem' || chr(10) || s.scope || chr(10) || ${p.key}, 0))`.as("locked"),
      "s.scope",
      ...RECORD,
    ]);
const claimForApiKeyStatement = statement((q: Query, p: { keyHash: string; key: string }) => claimForKeys(q, p, false));
const claimForRoutedApiKeyStatement = statement((q: Query, p: { keyHash: string; key: string; organizationId: string }) => claimForKeys(q, p, true));

// A claim's row: whether the lock was granted, the record's columns (null without a record),
// and the scope when the claim found it from an API key.
type ClaimStatementRow = Awaited<ReturnType<typeof claimStatement.rows>>[number];
export type ClaimRow = ClaimStatementRow & { scope?: string };

// The advisory lock's text for (scope, key); claimForApiKeyInTx builds the same in SQL.
const lockText = (scope: string, key: string) => `idem\n${scope}\n${key}`;

// What a claim's row means for the claim `c`: the stored response to replay, nothing (the
// key is ours), or 409 while another live transaction holds the key.
export function claimed(row: ClaimRow | undefined, c: KeyClaim): StoredResponse | undefined {
  // A completed record is final: it is replayed whether or not this transaction got the
  // lock (concurrent replays of one key must not turn each other away with 409s).
  const stored =
    row &&
    storedOf(
      row.state,
      row.method,
      row.path,
      row.fingerprint,
      row.response_status,
      row.response_body,
      row.response_headers as Record<string, string> | null,
      c,
    );
  if (stored) return stored;
  if (!row?.locked) {
    throw new AppError("idempotency_request_in_progress", "a request with this Idempotency-Key is still being processed", {
      headers: { "Retry-After": "1" },
    });
  }
  return undefined;
}

// The stored response of a completed request with this key, read outside any claim (after
// KeyTakenMeanwhile: the row committed by the other claimant).
export async function lookup(q: Tx, c: KeyClaim): Promise<StoredResponse | undefined> {
  const row = await q.idempotencyRecord.findUnique({ where: { organizationId_scope_key: { organizationId: c.organizationId, scope: c.scope, key: c.key } } });
  if (!row) return undefined;
  return storedOf(
    row.state,
    row.method,
    row.path,
    row.fingerprint,
    row.responseStatus,
    row.responseBody,
    row.responseHeaders as Record<string, string> | null,
    c,
  );
}

function storedOf(
  state: string | null,
  method: string | null,
  path: string | null,
  fp: string | null,
  status: number | null,
  body: string | null,
  headers: Record<string, string> | null,
  c: KeyClaim,
): StoredResponse | undefined {
  if (state !== "completed" || status === null || body === null) return undefined;
  if (method !== c.method || path !== c.path || !sameRequest(fp, c)) {
    throw new AppError("idempotency_key_reused", "this Idempotency-Key was used with a different request");
  }
  return { status, body: openBody(body), headers: headers ?? {} };
}

// Stored bodies are sealed (AES-256-GCM under APP_SECRET: lib/crypto.ts): a response can carry
// a bearer capability (registration's and reissue_link's `payment_request.hosted_url`), and a
// copy of the database alone must yield no working link. Bodies stored by earlier versions
// are plain JSON (never a box: `isSealed`) or deflated boxes (`v2`). The sealed body stays in
// its row, not in TOAST (migration 0018). A body sealed under another
// APP_SECRET cannot be replayed; the request it answered did run, so running it again is no
// option either: the key is refused as used.
function openBody(stored: string): string {
  if (!isSealed(stored)) return stored;
  try {
    return openSecret(stored);
  } catch {
    throw new AppError(
      "idempotency_key_reused",
      "this Idempotency-Key was used by a request whose stored response can no longer be read (APP_SECRET changed); check its effect, then use a new key",
    );
  }
}

// Another transaction completed a request with this key between our claim's snapshot and
// its lock: the caller rolls back and replays what that one stored.
export class KeyTakenMeanwhile extends Error {
  constructor() {
    super("idempotency key completed by a concurrent request");
  }
}

// Inserts the completed record, its body sealed (or replaces a legacy 'processing' row); finding a completed
// row instead means a concurrent claimant won (see claimInTx). The write goes with COMMIT, in
// one round trip (lib/db/client.ts, sqlLater): so a key found taken fails the statement itself
// (fos_raise, SQLSTATE FO001, migration 0017), the database rolls the transaction back at
// COMMIT, and the transaction fails with KeyTakenMeanwhile.
export async function storeInTx(tx: Tx, c: KeyClaim, r: StoredResponse): Promise<void> {
  await storeStatement.later(
    tx,
    {
      org: c.organizationId,
      scope: c.scope,
      key: c.key,
      method: c.method,
      path: c.path,
      fingerprint: c.fingerprint,
      status: r.status,
      body: sealSecret(r.body),
      headers: JSON.stringify(r.headers),
    },
    (err) => ((err as { code?: string }).code === "FO001" ? new KeyTakenMeanwhile() : err),
  );
}

type StoreValues = {
  org: string;
  scope: string;
  key: string;
  method: string;
  path: string;
  fingerprint: string;
  status: number;
  body: string;
  headers: string;
};
const now = raw<Date>`now()`;
const storeStatement = statement((q, p: StoreValues) =>
  q
    .with("stored", (w) =>
      w
        .insertInto("idempotency_records")
        .values({
          organization_id: p.org,
          scope: p.scope,
          key: p.key,
          method: p.method,
          path: p.path,
          fingerprint: p.fingerprint,
          state: "completed",
          response_status: p.status,
          response_body: p.body,
          response_headers: p.headers, // JSON text, read as jsonb by the column
          locked_until: now,
          created_at: now,
          completed_at: now,
        })
        .onConflict((oc) =>
          oc
            .columns(["organization_id", "scope", "key"])
            .doUpdateSet((eb) => ({
              method: eb.ref("excluded.method"),
              path: eb.ref("excluded.path"),
              fingerprint: eb.ref("excluded.fingerprint"),
              state: "completed",
              response_status: eb.ref("excluded.response_status"),
              response_body: eb.ref("excluded.response_body"),
              response_headers: eb.ref("excluded.response_headers"),
              locked_until: eb.ref("excluded.locked_until"),
              created_at: eb.ref("excluded.created_at"),
              completed_at: eb.ref("excluded.completed_at"),
            }))
            .where("idempotency_records.state", "<>", "completed"),
        )
        .returning(raw<number>`1`.as("one")),
    )
    .selectNoFrom(raw`fos_raise('FO001', 'idempotency key completed by a concurrent request')`.as("raised"))
    .where((eb) => eb.not(eb.exists(eb.selectFrom("stored").select(raw`1`.as("one"))))),
);

// Responses that must not be replayed (409, 429, 5xx) leave the key free for a retry.
export const isStorable = (status: number) => status < 500 && status !== 409 && status !== 429;

export async function pruneIdempotency(): Promise<number> {
  const cutoff = new Date(Date.now() - env().IDEMPOTENCY_RETENTION_HOURS * 3600_000);
  return (await db().idempotencyRecord.deleteMany({ where: { createdAt: { lt: cutoff } } })).count;
}
