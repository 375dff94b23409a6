import { randomUUID } from "node:crypto";
import { describe, expect, it, beforeAll } from "vitest";
import { inject } from "vitest";
import { Api, backend } from "./support/api";
import pg from "pg";
import { untilSomeoneWaits } from "./support/lock-wait";
import { apiKeyWith, newOrg, signedIn, type OrgFixture } from "./support/fixtures";
import { registration } from "./support/bodies";
import { startServer } from "./support/server";
import { db } from "@/lib/db/client";
import { fingerprint } from "@/lib/idempotency";
import { openSecret } from "@/lib/crypto";
import { tokenLookup } from "@/lib/auth/token-routing";
import { sealDeflated } from "./support/legacy-box";
import { legacyFingerprint } from "./support/legacy-fingerprint";

async function countByExternalId(api: Api, externalId: string): Promise<number> {
  let n = 0;
  for (let offset = 0; ; offset += 100) {
    const page = await api.get(`/obligations?limit=100&offset=${offset}`);
    expect(page.status).toBe(200);
    n += page.body.items.filter((o: any) => o.external_reference.id === externalId).length;
    if (page.body.items.length < 100) return n;
  }
}

describe("Idempotency-Key", () => {
  let org: OrgFixture;
  beforeAll(async () => {
    org = await newOrg();
  });

  it("replays the stored response byte for byte with Idempotent-Replayed: true, and has one effect", async () => {
    const key = `replay-${randomUUID()}`;
    const body = registration();
    const first = await org.api.post("/obligations", body, { idempotencyKey: key });
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    // Same body with its keys in another order is the same request.
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const again = await org.api.post("/obligations", reordered, { idempotencyKey: key });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.text).toBe(first.text);
    expect(await countByExternalId(org.api, body.external_reference.id)).toBe(1);
  });

  it("refuses the same key with a different body or path (422 idempotency_key_reused)", async () => {
    const key = `reuse-${randomUUID()}`;
    expect((await org.api.post("/obligations", registration(), { idempotencyKey: key })).status).toBe(201);
    const other = await org.api.post("/obligations", registration({ amount_minor: "1" }), { idempotencyKey: key });
    expect(other.status).toBe(422);
    expect(other.body).toEqual({ error: { code: "idempotency_key_reused", message: expect.any(String) } });
    const otherPath = await org.api.post(
      "/invoices",
      { invoice_number: "X-1", amount_minor: "100", currency: "EUR", due_date: "2026-12-31", recipient: { name: "R" } },
      { idempotencyKey: key },
    );
    expect(otherPath.status).toBe(422);
    expect(otherPath.body.error.code).toBe("idempotency_key_reused");
  });

  it("requires a key of 8 to 200 characters (400 idempotency_key_required)", async () => {
    for (const key of [null, "short77", "k".repeat(201)]) {
      const r = await org.api.post("/obligations", registration(), { idempotencyKey: key });
      expect(r.status, String(key)).toBe(400);
      expect(r.body.error.code).toBe("idempotency_key_required");
    }
    expect((await org.api.post("/obligations", registration(), { idempotencyKey: "k".repeat(200) })).status).toBe(201);
    expect((await org.api.post("/obligations", registration(), { idempotencyKey: "k".repeat(8) })).status).toBe(201);
  });

  it("stores 4xx validation responses and replays them too", async () => {
    const key = `invalid-${randomUUID()}`;
    const bad = registration({ amount_minor: "12.50" });
    const first = await org.api.post("/obligations", bad, { idempotencyKey: key });
    expect(first.status).toBe(422);
    expect(first.body.error.code).toBe("validation_failed");
    expect(first.body.error.message).toContain("body.amount_minor");
    const again = await org.api.post("/obligations", bad, { idempotencyKey: key });
    expect(again.status).toBe(422);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.text).toBe(first.text);
  });

  it("scopes keys per organization", async () => {
    const other = await newOrg("Other Org");
    const key = `shared-${randomUUID()}`;
    const a = await org.api.post("/obligations", registration(), { idempotencyKey: key });
    const b = await other.api.post("/obligations", registration(), { idempotencyKey: key });
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.headers.get("idempotent-replayed")).toBeNull();
    expect(b.body.obligation.organization_id).toBe(other.organizationId);
  });

  // An API key's request reads its credential and claims its key in one write
  // (apiKeyOrder of lib/http/pipeline.ts); the answers are those of the ordinary order.
  it("answers a bad credential before the body, and stores nothing for it under the key", async () => {
    const key = `credential-${randomUUID()}`;
    const body = registration();
    const unknown = new Api(org.api.baseUrl, `fos_live_${randomUUID().replaceAll("-", "")}`);
    for (const sent of [registration({ amount_minor: "12.50" }), body]) {
      const r = await unknown.post("/obligations", sent, { idempotencyKey: key });
      expect(r.status).toBe(401);
      expect(r.body.error.code).toBe("unauthenticated");
    }
    // A key of the organization without the scope: 403, not stored either.
    const readOnly = await apiKeyWith(org, ["obligations:read"]);
    const refused = await readOnly.post("/obligations", body, { idempotencyKey: key });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("insufficient_scope");
    const first = await org.api.post("/obligations", body, { idempotencyKey: key });
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
  });

  it("shares a key between the organization's API keys and its signed-in users (one scope)", async () => {
    const key = `shared-scope-${randomUUID()}`;
    const body = registration();
    const first = await org.api.post("/obligations", body, { idempotencyKey: key });
    expect(first.status).toBe(201);
    const other = await apiKeyWith(org, ["obligations:read", "obligations:write"]);
    const viaOtherKey = await other.post("/obligations", body, { idempotencyKey: key });
    expect(viaOtherKey.headers.get("idempotent-replayed")).toBe("true");
    expect(viaOtherKey.text).toBe(first.text);
    const user = await signedIn(org.email);
    const viaSession = await user.post("/obligations", body, { idempotencyKey: key });
    expect(viaSession.headers.get("idempotent-replayed")).toBe("true");
    expect(viaSession.text).toBe(first.text);
    // And the other way round: a key first used by a user is replayed to an API key.
    const key2 = `shared-scope-${randomUUID()}`;
    const body2 = registration();
    const byUser = await user.post("/obligations", body2, { idempotencyKey: key2 });
    expect(byUser.status).toBe(201);
    const byKey = await org.api.post("/obligations", body2, { idempotencyKey: key2 });
    expect(byKey.headers.get("idempotent-replayed")).toBe("true");
    expect(byKey.text).toBe(byUser.text);
  });

  it("records an API key's use when its request claims a key", async () => {
    const fresh = await apiKeyWith(org, ["obligations:read", "obligations:write"]);
    const c = new pg.Client({ connectionString: inject("databaseUrl") });
    await c.connect();
    try {
      const digest = tokenLookup(fresh.apiKey!, "fos_")?.hash;
      const lastUsed = async () => (await c.query("SELECT last_used_at FROM api_keys WHERE key_hash = $1", [digest])).rows[0].last_used_at;
      expect(await lastUsed()).toBeNull();
      expect((await fresh.post("/obligations", registration(), { idempotencyKey: `use-${randomUUID()}` })).status).toBe(201);
      expect(await lastUsed()).toBeInstanceOf(Date);
    } finally {
      await c.end();
    }
  });

  it("20 concurrent requests with one key execute exactly once", async () => {
    const key = `race-${randomUUID()}`;
    const body = registration();
    const results = await Promise.all(Array.from({ length: 20 }, () => org.api.post("/obligations", body, { idempotencyKey: key })));
    const statuses = results.map((r) => r.status);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    for (const r of results.filter((r) => r.status === 409)) expect(r.body.error.code).toBe("idempotency_request_in_progress");
    const ids = new Set(results.filter((r) => r.status === 201).map((r) => r.body.obligation.id));
    expect(ids.size).toBe(1);
    expect(await countByExternalId(org.api, body.external_reference.id)).toBe(1);
  });

  // The one window a single-statement claim leaves: the concurrent claimant commits after the
  // claim's snapshot but before its lock, and this request's work then fails on that claimant's
  // own effect with an answer that is never stored (409 duplicate). It is the same request, so
  // the completed record is replayed. The window is made wide here: another client holds an
  // uncommitted copy of the reference (the registration's insert waits for it), writes the
  // completed record for the key, and commits.
  it.runIf(backend() === "postgres")("a request whose key was completed meanwhile by its twin replays it instead of answering 409 duplicate", async () => {
    const earlier = await org.api.post("/obligations", registration(), { idempotencyKey: `twin-earlier-${randomUUID()}` });
    expect(earlier.status).toBe(201);
    const key = `twin-${randomUUID()}`;
    const body = registration();
    const c = new pg.Client({ connectionString: inject("databaseUrl") });
    await c.connect();
    try {
      await c.query("BEGIN");
      await c.query("UPDATE obligations SET external_namespace = $3, external_id = $4 WHERE organization_id = $1 AND id = $2", [
        org.organizationId,
        earlier.body.obligation.id,
        body.external_reference.namespace,
        body.external_reference.id,
      ]);
      const pending = org.api.post("/obligations", body, { idempotencyKey: key });
      await untilSomeoneWaits(c, "the registration");
      await c.query(
        `INSERT INTO idempotency_records (organization_id, scope, key, method, path, fingerprint, state, response_status, response_body, response_headers, locked_until, created_at, completed_at)
         VALUES ($1, $2, $3, 'POST', '/api/v1/obligations', $4, 'completed', 201, $5, '{}', now(), now(), now())`,
        [org.organizationId, `org:${org.organizationId}`, key, fingerprint("POST", "/api/v1/obligations", body), earlier.text],
      );
      await c.query("COMMIT");
      const r = await pending;
      expect(r.status, r.text).toBe(201);
      expect(r.headers.get("idempotent-replayed")).toBe("true");
      expect(r.text).toBe(earlier.text);
    } finally {
      await c.query("ROLLBACK").catch(() => undefined);
      await c.end();
    }
    // A genuine duplicate under a fresh key is still refused.
    const dup = await org.api.post("/obligations", body, { idempotencyKey: `twin-dup-${randomUUID()}` });
    expect(dup.status).toBe(409);
    expect(dup.body.error.code).toBe("duplicate");
  });

  it("two server instances on one database still execute a key exactly once", async () => {
    const second = await startServer({ databaseUrl: inject("databaseUrl"), label: "second", env: { WEBHOOK_WORKER: "off" } });
    try {
      const apis = [org.api, new Api(second.baseUrl, org.apiKey)];
      for (let round = 0; round < 3; round++) {
        const key = `two-instances-${randomUUID()}`;
        const body = registration();
        const results = await Promise.all(Array.from({ length: 20 }, (_, i) => apis[i % 2].post("/obligations", body, { idempotencyKey: key })));
        expect(results.every((r) => r.status === 201 || r.status === 409)).toBe(true);
        expect(new Set(results.filter((r) => r.status === 201).map((r) => r.body.obligation.id)).size).toBe(1);
        expect(await countByExternalId(org.api, body.external_reference.id)).toBe(1);
      }
    } finally {
      await second.stop();
    }
  });

  // Stored bodies are sealed under APP_SECRET (test/secrets-at-rest.test.ts checks that no
  // token is left in plain form); bodies stored before that are plain JSON and still replay.
  it("replays a record stored by an earlier version (plain body, plain SHA-256 fingerprint), and refuses a key whose stored body cannot be opened", async () => {
    const body = registration();
    const stored = (key: string, responseBody: string, fp = legacyFingerprint("POST", "/api/v1/obligations", body)) =>
      db().idempotencyRecord.create({
        data: {
          organizationId: org.organizationId,
          scope: `org:${org.organizationId}`,
          key,
          method: "POST",
          path: "/api/v1/obligations",
          fingerprint: fp,
          state: "completed",
          responseStatus: 201,
          responseBody,
          responseHeaders: {},
          lockedUntil: new Date(),
          completedAt: new Date(),
        },
      });
    // A real response of another registration, stored as earlier versions did (plain).
    const earlier = await org.api.post("/obligations", registration(), { idempotencyKey: `earlier-${randomUUID()}` });
    expect(earlier.status).toBe(201);
    const legacy = `legacy-${randomUUID()}`;
    await stored(legacy, earlier.text);
    const replay = await org.api.post("/obligations", body, { idempotencyKey: legacy });
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.text).toBe(earlier.text);
    const otherBody = await org.api.post("/obligations", registration(), { idempotencyKey: legacy });
    expect(otherBody.status).toBe(422);
    expect(otherBody.body.error.code).toBe("idempotency_key_reused");

    // Sealed under another secret (APP_SECRET was changed): never run again, never a 5xx.
    const unreadable = `unreadable-${randomUUID()}`;
    await stored(unreadable, "v1.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA.AAAA", fingerprint("POST", "/api/v1/obligations", body));
    const refused = await org.api.post("/obligations", body, { idempotencyKey: unreadable });
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe("idempotency_key_reused");
    expect(await countByExternalId(org.api, body.external_reference.id)).toBe(0);
  });

  // Stored bodies are sealed whole (lib/crypto.ts, "v1") and stay in their row: migration 0018
  // keeps rows up to a page out of TOAST. Boxes deflated before sealing ("v2", how earlier
  // builds stored responses) still replay.
  it("stores a registration's response sealed whole, inline in its row; replays it and a v2 box byte for byte", async () => {
    const key = `inline-${randomUUID()}`;
    const body = registration();
    const first = await org.api.post("/obligations", body, { idempotencyKey: key });
    expect(first.status).toBe(201);
    const scope = `org:${org.organizationId}`;
    const [row] = await db().$queryRawUnsafe<{ body: string; compression: string | null; toast: string }[]>(
      `SELECT response_body AS body, pg_column_compression(response_body) AS compression,
              (SELECT reltoastrelid::regclass::text FROM pg_class WHERE oid = 'idempotency_records'::regclass) AS toast
         FROM idempotency_records WHERE scope = $1 AND key = $2`,
      scope,
      key,
    );
    expect(row.body.startsWith("v1.")).toBe(true);
    expect(openSecret(row.body)).toBe(first.text);
    expect(row.body.length).toBeGreaterThan(3000); // past PostgreSQL's default TOAST threshold (~2 kB per row)
    expect(row.compression).toBeNull(); // ciphertext: no compression attempted
    // none of its bytes went to the TOAST table (an uncompressed value is stored there as it is)
    const [{ chunks }] = await db().$queryRawUnsafe<{ chunks: number }[]>(
      `SELECT count(*)::int AS chunks FROM ${row.toast} WHERE position(convert_to($1, 'UTF8') in chunk_data) > 0`,
      row.body.slice(200, 264),
    );
    expect(chunks).toBe(0);
    const again = await org.api.post("/obligations", body, { idempotencyKey: key });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.text).toBe(first.text);

    const v2Key = `v2-${randomUUID()}`;
    const v2Body = registration();
    const answered = await org.api.post("/obligations", registration(), { idempotencyKey: `v2-source-${randomUUID()}` });
    await db().idempotencyRecord.create({
      data: {
        organizationId: org.organizationId,
        scope,
        key: v2Key,
        method: "POST",
        path: "/api/v1/obligations",
        fingerprint: fingerprint("POST", "/api/v1/obligations", v2Body),
        state: "completed",
        responseStatus: 201,
        responseBody: sealDeflated(answered.text),
        responseHeaders: {},
        lockedUntil: new Date(),
        completedAt: new Date(),
      },
    });
    const replay = await org.api.post("/obligations", v2Body, { idempotencyKey: v2Key });
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.text).toBe(answered.text);
  });
});
