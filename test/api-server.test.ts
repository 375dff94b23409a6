import { randomUUID } from "node:crypto";
import { request } from "node:http";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { baseUrl } from "./support/api";
import { newOrg, TEST_PASSWORD, type OrgFixture } from "./support/fixtures";
import { legacyBody, registerObligation } from "./support/obligations";
import { startServer, type TestServer } from "./support/server";

// The direct API path (lib/http/api-server.ts, scripts/server.mjs): the suite's server answers
// /api/v1 without Next.js's per-request machinery. A second server on the suite's database
// with API_SERVER=next answers every request through Next.js, as `next start` did (under the
// suite server's public URL, which the hosted links carry). The same
// requests must get the same answers from both: status, body, and every header a client can
// rely on.
let viaNext: TestServer;
let org: OrgFixture;
let obligationId: string;

beforeAll(async () => {
  viaNext = await startServer({ databaseUrl: inject("databaseUrl"), label: "api-via-next", env: { API_SERVER: "next", PUBLIC_BASE_URL: baseUrl() } });
  org = await newOrg("Two Paths Ltd");
  obligationId = (await registerObligation(org.api)).invoice.id;
}, 240_000);
afterAll(async () => {
  await viaNext?.stop();
});

// Headers that differ between any two responses, or by how a body is framed: Next.js streams
// every body (chunked) and so compresses even a few bytes; the direct path sends a body's
// length and, like the compression middleware given a length, leaves one under 1 KiB as it is.
const VOLATILE = new Set(["date", "x-request-id", "vary", "content-length", "transfer-encoding", "keep-alive", "connection", "content-encoding"]);
const stable = (h: Headers) => Object.fromEntries([...h].filter(([k]) => !VOLATILE.has(k)));

type Req = { method: string; path: string; headers?: Record<string, string>; body?: string };
async function both(r: Req) {
  const send = async (base: string) => {
    const res = await fetch(`${base}${r.path}`, { method: r.method, headers: r.headers, body: r.body, redirect: "manual" });
    return { status: res.status, headers: res.headers, text: await res.text() };
  };
  return { direct: await send(baseUrl()), next: await send(viaNext.baseUrl) };
}
const auth = () => ({ authorization: `Bearer ${org.apiKey}` });

describe("the direct API path", () => {
  it("serves /api/v1 itself: its responses lack the Vary on Next.js's router headers that Next.js adds", async () => {
    const { direct, next } = await both({ method: "GET", path: "/api/v1/obligations?limit=1", headers: auth() });
    expect(direct.status).toBe(200);
    expect(next.status).toBe(200);
    expect(next.headers.get("vary") ?? "").toContain("rsc");
    expect(direct.headers.get("vary") ?? "").not.toContain("rsc");
  });

  it("answers reads, refusals and unusual paths exactly as Next.js does", async () => {
    const cases: Req[] = [
      { method: "GET", path: "/api/v1/obligations?limit=3", headers: auth() },
      { method: "GET", path: `/api/v1/obligations/${obligationId}`, headers: auth() },
      { method: "GET", path: `/api/v1/obligations/${randomUUID()}`, headers: auth() },
      { method: "GET", path: "/api/v1/obligations/not-an-id", headers: auth() },
      { method: "GET", path: "/api/v1/obligations?limit=oops", headers: auth() },
      { method: "GET", path: "/api/v1/obligations" },
      { method: "GET", path: "/api/v1/obligations", headers: { authorization: "Bearer fos_not-a-key" } },
      { method: "PUT", path: "/api/v1/obligations", headers: auth() },
      { method: "DELETE", path: `/api/v1/obligations/${obligationId}`, headers: auth() },
      { method: "GET", path: "/api/v1/session" },
      { method: "GET", path: "/api/v1/openapi.json" },
      { method: "GET", path: "/api/v1/no-such-endpoint", headers: auth() },
      { method: "GET", path: "/api/v1/obligations/", headers: auth() },
      { method: "GET", path: "/api/v1/obligations/%zz", headers: auth() },
      { method: "GET", path: `/api/v1/obligations/${obligationId}/./documents`, headers: auth() },
      { method: "HEAD", path: "/api/v1/obligations?limit=1", headers: auth() },
      { method: "OPTIONS", path: "/api/v1/obligations", headers: auth() },
      { method: "GET", path: "/api/v1/obligations?limit=20", headers: { ...auth(), "accept-encoding": "gzip" } },
    ];
    for (const c of cases) {
      const { direct, next } = await both(c);
      const what = `${c.method} ${c.path}`;
      expect(direct.status, what).toBe(next.status);
      expect(stable(direct.headers), what).toEqual(stable(next.headers));
      expect(direct.text, what).toBe(next.text);
    }
    // the OpenAPI document's validator, answered with 304 by both
    const doc = await both({ method: "GET", path: "/api/v1/openapi.json" });
    const etag = doc.direct.headers.get("etag")!;
    expect(etag).toBeTruthy();
    const again = await both({ method: "GET", path: "/api/v1/openapi.json", headers: { "if-none-match": etag } });
    expect([again.direct.status, again.next.status]).toEqual([304, 304]);
    expect(stable(again.direct.headers)).toEqual(stable(again.next.headers));
  });

  it("compresses a body of 1 KiB or more for a client that accepts gzip, and sends a smaller one as it is", async () => {
    for (let i = 0; i < 3; i++) await registerObligation(org.api);
    const gzip = { ...auth(), "accept-encoding": "gzip" };
    const large = await both({ method: "GET", path: "/api/v1/obligations?limit=20", headers: gzip });
    expect(large.direct.headers.get("content-encoding")).toBe("gzip");
    expect(large.next.headers.get("content-encoding")).toBe("gzip");
    expect(JSON.parse(large.direct.text).items.length).toBeGreaterThan(2);
    expect(large.direct.text).toBe(large.next.text);
    const small = await both({ method: "GET", path: `/api/v1/obligations/${randomUUID()}`, headers: gzip });
    expect(small.direct.status).toBe(404);
    expect(small.direct.headers.get("content-encoding")).toBeNull();
    expect(Number(small.direct.headers.get("content-length"))).toBe(Buffer.byteLength(small.direct.text));
    const plain = await fetch(`${baseUrl()}/api/v1/obligations?limit=20`, { headers: { ...auth(), "accept-encoding": "identity" } });
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(await plain.text()).toBe(large.direct.text);
  });

  // The direct path gzips a whole JSON text itself, with a pooled zlib stream
  // (lib/http/gzip.ts), where the middleware's choice is plainly gzip; any other header is
  // left to the middleware. Either way a client must get the coding Next.js would send.
  it("picks the coding Next.js's compression picks for any Accept-Encoding, and sends a complete gzip body with its length", async () => {
    const accepts = ["gzip", "gzip, deflate", "gzip, deflate, br, zstd", "deflate, gzip", "deflate, gzip;q=0.5", "gzip;q=0.5, br", "GZip;Q=0.9"];
    const others = ["gzip;q=0", "identity, gzip", "gzip;q=0.8, identity;q=0.9", "*", "*;q=0", "br", "deflate", "x-gzip", "gzip;q=oops", "identity"];
    for (const accept of [...accepts, ...others]) {
      const r = await both({ method: "GET", path: "/api/v1/obligations?limit=20", headers: { ...auth(), "accept-encoding": accept } });
      expect(r.direct.status, accept).toBe(200);
      expect(r.direct.headers.get("content-encoding"), accept).toBe(r.next.headers.get("content-encoding"));
      expect(r.direct.text, accept).toBe(r.next.text);
      if (accepts.includes(accept)) expect(r.direct.headers.get("content-encoding"), accept).toBe("gzip");
    }
    // the bytes on the wire: one gzip member, its length declared, Vary set
    const raw = await new Promise<{ headers: import("node:http").IncomingHttpHeaders; bytes: Buffer }>((resolve, reject) => {
      const url = new URL(`${baseUrl()}/api/v1/obligations?limit=20`);
      const req = request(url, { headers: { ...auth(), "accept-encoding": "gzip" } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ headers: res.headers, bytes: Buffer.concat(chunks) }));
      });
      req.on("error", reject);
      req.end();
    });
    expect(raw.headers["content-encoding"]).toBe("gzip");
    expect(raw.headers.vary).toContain("Accept-Encoding");
    expect(Number(raw.headers["content-length"])).toBe(raw.bytes.length);
    const identity = await fetch(`${baseUrl()}/api/v1/obligations?limit=20`, { headers: { ...auth(), "accept-encoding": "identity" } });
    expect(gunzipSync(raw.bytes).toString("utf8")).toBe(await identity.text());
  });

  it("takes writes: the same registration, replay and refusals as through Next.js", async () => {
    const body = JSON.stringify(legacyBody());
    const post = (key: string, text = body) => ({
      method: "POST",
      path: "/api/v1/obligations",
      headers: { ...auth(), "content-type": "application/json", "idempotency-key": key },
      body: text,
    });
    const key = `two-paths-${randomUUID()}`;
    const first = await both(post(key));
    expect([first.direct.status, first.next.status]).toEqual([201, 201]);
    // one Idempotency-Key, sent to both paths: the second answer is the first one's replay
    expect(first.next.text).toBe(first.direct.text);
    expect(first.next.headers.get("idempotent-replayed")).toBe("true");
    expect(stable(first.direct.headers)).toEqual({ ...stable(first.next.headers), "idempotent-replayed": undefined });
    const replay = await both(post(key));
    expect(replay.direct.text).toBe(first.direct.text);
    expect(stable(replay.direct.headers)).toEqual(stable(replay.next.headers));
    const created = JSON.parse(first.direct.text);
    expect(created.invoice.id).toMatch(/^[0-9a-f-]{36}$/);

    for (const text of ["{", JSON.stringify({ ...legacyBody(), amount_minor: "-5" }), "[]"]) {
      const r = await both(post(`bad-${randomUUID()}`, text));
      expect(r.direct.status, text).toBe(r.next.status);
      expect(r.direct.status, text).toBeGreaterThanOrEqual(400);
      expect(r.direct.text, text).toBe(r.next.text);
    }
  });

  it("reads a body sent without a length (chunked) and sign-in's cookies come back as Next.js sends them", async () => {
    const chunks = [JSON.stringify(legacyBody()).slice(0, 20), JSON.stringify(legacyBody()).slice(20)];
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        for (const s of chunks) c.enqueue(new TextEncoder().encode(s));
        c.close();
      },
    });
    const res = await fetch(`${baseUrl()}/api/v1/obligations`, {
      method: "POST",
      headers: { ...auth(), "content-type": "application/json", "idempotency-key": `chunked-${randomUUID()}` },
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(res.status, await res.clone().text()).toBe(201);
    expect((await res.json()).invoice.amount_minor).toBe(legacyBody().amount_minor);

    const signIn = {
      method: "POST",
      path: "/api/v1/session",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: org.email, password: TEST_PASSWORD }),
    };
    const { direct, next } = await both(signIn);
    expect([direct.status, next.status]).toEqual([200, 200]);
    const shape = (h: Headers) => h.getSetCookie().map((c) => c.replace(/=[^;]*/, "=…"));
    expect(shape(direct.headers).length).toBeGreaterThan(0);
    expect(shape(direct.headers)).toEqual(shape(next.headers));
  });

  it("refuses to start with an API_SERVER it does not know", async () => {
    await expect(startServer({ databaseUrl: inject("databaseUrl"), label: "api-bad", env: { API_SERVER: "nextjs" } })).rejects.toThrow(
      /Invalid configuration: API_SERVER/,
    );
  });

  it("streams large uploads to the handler and large downloads back, and bounds them as Next.js does", async () => {
    const bytes = Buffer.concat([Buffer.from("%PDF-1.4\n"), Buffer.alloc(600 * 1024, 0x20), Buffer.from("\n%%EOF\n")]);
    const form = () => {
      const f = new FormData();
      f.append("expected_version", "1");
      f.append("file", new Blob([new Uint8Array(bytes)], { type: "application/pdf" }), "big.pdf");
      return f;
    };
    const { invoice } = await registerObligation(org.api);
    const up = await fetch(`${baseUrl()}/api/v1/obligations/${invoice.id}/documents`, {
      method: "POST",
      headers: { ...auth(), "idempotency-key": `upload-${randomUUID()}` },
      body: form(),
    });
    expect(up.status, await up.clone().text()).toBe(201);
    const documentId = (await up.json()).document_id;
    const down = await fetch(`${baseUrl()}/api/v1/obligations/${invoice.id}/documents/${documentId}`, { headers: auth() });
    expect(down.status).toBe(200);
    expect(Buffer.from(await down.arrayBuffer()).equals(bytes)).toBe(true);

    const huge = new FormData();
    huge.append("expected_version", "2");
    huge.append("file", new Blob([new Uint8Array(11 * 1024 * 1024)], { type: "application/pdf" }), "huge.pdf");
    for (const base of [baseUrl(), viaNext.baseUrl]) {
      const r = await fetch(`${base}/api/v1/obligations/${invoice.id}/documents`, {
        method: "POST",
        headers: { ...auth(), "idempotency-key": `huge-${randomUUID()}` },
        body: huge,
      });
      expect(r.status, base).toBe(413);
      expect((await r.json()).error.code).toBe("payload_too_large");
    }
  });
});
