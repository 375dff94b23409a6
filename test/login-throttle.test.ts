import { randomInt, randomUUID } from "node:crypto";
import http from "node:http";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { Api } from "./support/api";
import { newOrg, signedIn, userWith, type OrgFixture } from "./support/fixtures";
import { startServer, type TestServer } from "./support/server";

// Sign-in throttling (docs/administration.md, "Sign-in throttling") on servers of the
// suite's database with a small LOGIN_MAX_FAILURES (3: 3 failures per email, 60 per client
// address): one that believes no X-Forwarded-For (the default) and one behind one trusted
// proxy (TRUST_PROXY_HOPS=1). The counters are the database's, shared with the suite's
// server, so every request here comes from a loopback address of its own (127.x.y.z: any
// of them reaches a server on 127.0.0.1) and every test uses fresh emails.
const MAX = 3;
// a day: windows start at 00:00 UTC, so none ends during the tests (short of midnight), and
// none is old enough for the housekeeping, which prunes windows that started a day ago
const WINDOW = String(86400);
let direct: TestServer;
let behindProxy: TestServer;
let org: OrgFixture;

beforeAll(async () => {
  const databaseUrl = inject("databaseUrl");
  [direct, behindProxy] = await Promise.all([
    startServer({ databaseUrl, label: "login-direct", env: { LOGIN_MAX_FAILURES: String(MAX), LOGIN_WINDOW_SECONDS: WINDOW } }),
    startServer({ databaseUrl, label: "login-proxy", env: { LOGIN_MAX_FAILURES: String(MAX), LOGIN_WINDOW_SECONDS: WINDOW, TRUST_PROXY_HOPS: "1" } }),
  ]);
  org = await newOrg("Throttled Ltd");
}, 240_000);
afterAll(async () => {
  await Promise.all([direct?.stop(), behindProxy?.stop()]);
});

const freshLoopback = () => `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;
const freshAddress = () => `203.0.113.${randomInt(1, 255)}`;
const unknownEmail = () => `nobody-${randomUUID()}@example.test`;

// POST /api/v1/session from a given local address. `nextPath`: the same route reached through
// Next.js's own request handler instead of the direct API path (which takes no path with a
// "." segment, lib/http/api-server.ts; Next.js normalizes it away).
function signIn(
  server: TestServer,
  o: { from: string; email: string; password?: string; forwardedFor?: string; nextPath?: boolean },
): Promise<{ status: number; code?: string; retryAfter?: string; vary?: string }> {
  const body = JSON.stringify({ email: o.email, password: o.password ?? "wrong-password!" });
  const headers: Record<string, string | number> = { "content-type": "application/json", "content-length": Buffer.byteLength(body) };
  if (o.forwardedFor !== undefined) headers["x-forwarded-for"] = o.forwardedFor;
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port: server.port,
        localAddress: o.from,
        method: "POST",
        path: o.nextPath ? "/api/v1/./session" : "/api/v1/session",
        headers,
        agent: false,
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c) => (text += c));
        res.on("end", () => {
          let code: string | undefined;
          try {
            code = JSON.parse(text).error?.code;
          } catch {
            /* not JSON */
          }
          resolve({ status: res.statusCode ?? 0, code, retryAfter: res.headers["retry-after"] as string | undefined, vary: res.headers.vary });
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

// Failed sign-ins with fresh emails (so that only the per-address limit can answer 429) until
// the first 429; the number of 401s before it.
async function failuresUntilLimited(server: TestServer, next: (i: number) => { from: string; forwardedFor?: string }): Promise<number> {
  for (let i = 0; i <= MAX * 20; i++) {
    const nextPath = i % 2 === 1;
    const r = await signIn(server, { ...next(i), email: unknownEmail(), nextPath });
    // (only Next.js varies on its router headers: test/api-server.test.ts)
    expect(r.vary ?? "", "answered through Next.js").toMatch(nextPath ? /rsc/ : /^(?![\s\S]*rsc)/);
    if (r.status === 429) {
      expect(r.code).toBe("rate_limited");
      expect(Number(r.retryAfter)).toBeGreaterThan(0);
      return i;
    }
    expect(r.status).toBe(401);
  }
  throw new Error(`no 429 after ${MAX * 20 + 1} failed sign-ins`);
}

describe("the client address of the per-address sign-in limit", () => {
  it("is the socket's peer by default: a different X-Forwarded-For on every attempt does not escape the limit", async () => {
    const from = freshLoopback();
    // (odd attempts through Next.js: both paths count in the one bucket of the peer)
    expect(await failuresUntilLimited(direct, () => ({ from, forwardedFor: freshAddress() }))).toBe(MAX * 20);
    for (const nextPath of [false, true]) {
      const r = await signIn(direct, { from, email: unknownEmail(), forwardedFor: `${freshAddress()}, ${freshAddress()}`, nextPath });
      expect(r.status).toBe(429);
    }
    // another peer is another client
    expect((await signIn(direct, { from: freshLoopback(), email: unknownEmail(), forwardedFor: freshAddress() })).status).toBe(401);
  });

  it("with TRUST_PROXY_HOPS=1 is the right-most X-Forwarded-For address: the one the proxy saw", async () => {
    const from = freshLoopback(); // the proxy
    const client = freshAddress();
    expect(await failuresUntilLimited(behindProxy, () => ({ from, forwardedFor: `${freshAddress()}, ${client}` }))).toBe(MAX * 20);
    for (const nextPath of [false, true]) {
      const r = await signIn(behindProxy, { from, email: unknownEmail(), forwardedFor: `${freshAddress()}, ${client}`, nextPath });
      expect(r.status).toBe(429);
      // the same proxy forwarding another client: not limited (so not the peer's bucket either)
      const other = await signIn(behindProxy, { from, email: unknownEmail(), forwardedFor: `${client}, ${freshAddress()}`, nextPath });
      expect(other.status).toBe(401);
    }
  });
});

describe("failed password checks per email", () => {
  it("lets at most LOGIN_MAX_FAILURES of a burst of concurrent wrong passwords be checked", async () => {
    const u = await userWith(org, "viewer");
    const from = freshLoopback();
    const answers = await Promise.all(Array.from({ length: 3 * MAX }, () => signIn(direct, { from, email: u.email })));
    const checked = answers.filter((r) => r.status !== 429);
    expect(checked.length).toBeLessThanOrEqual(MAX);
    expect(checked.length).toBeGreaterThan(0);
    for (const r of checked) expect(r.status).toBe(401);
    for (const r of answers.filter((x) => x.status === 429)) expect(r.code).toBe("rate_limited");
    // the right password too, until the window ends
    expect((await signIn(direct, { from, email: u.email, password: u.password })).status).toBe(429);
  });

  it("a successful sign-in does not count: LOGIN_MAX_FAILURES - 1 failures then the right password, again and again", async () => {
    const u = await userWith(org, "viewer");
    const from = freshLoopback();
    for (let round = 0; round < 3; round++) {
      expect((await signIn(direct, { from, email: u.email, password: u.password })).status).toBe(200);
    }
    for (let i = 0; i < MAX - 1; i++) expect((await signIn(direct, { from, email: u.email })).status).toBe(401);
    expect((await signIn(direct, { from, email: u.email, password: u.password })).status).toBe(200);
    expect((await signIn(direct, { from, email: u.email })).status).toBe(401);
    expect((await signIn(direct, { from, email: u.email })).status).toBe(429);
  });
});

describe("POST /session/password", () => {
  const withCookie = async (server: TestServer, email: string) => new Api(server.baseUrl, undefined, (await signedIn(email)).cookie);

  it("answers 429 rate_limited with Retry-After after LOGIN_MAX_FAILURES wrong current_password, with or without an Idempotency-Key", async () => {
    const u = await userWith(org, "member");
    const api = await withCookie(direct, u.email);
    const wrong = { current_password: "not-the-password", new_password: "a-brand-new-password" };
    for (let i = 0; i < MAX; i++) {
      const r = await api.post("/session/password", wrong, i % 2 === 0 ? {} : { idempotencyKey: null });
      expect(r.status).toBe(422);
      expect(r.body.error.code).toBe("validation_failed");
    }
    for (const o of [{}, { idempotencyKey: null }]) {
      const r = await api.post("/session/password", wrong, o);
      expect(r.status).toBe(429);
      expect(r.body).toEqual({ error: { code: "rate_limited", message: expect.any(String) } });
      expect(Number(r.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    // the right password is refused too, and the password is unchanged; sign-in shares the count
    expect((await api.post("/session/password", { current_password: u.password, new_password: "a-brand-new-password" })).status).toBe(429);
    expect((await api.get("/session")).status).toBe(200);
    expect((await signIn(direct, { from: freshLoopback(), email: u.email, password: u.password })).status).toBe(429);
  });

  it("lets at most LOGIN_MAX_FAILURES of a burst of concurrent wrong current_password be checked", async () => {
    const u = await userWith(org, "member");
    const api = await withCookie(direct, u.email);
    const answers = await Promise.all(
      Array.from({ length: 3 * MAX }, () => api.post("/session/password", { current_password: "not-the-password", new_password: "a-brand-new-password" })),
    );
    const checked = answers.filter((r) => r.status !== 429);
    expect(checked.length).toBeLessThanOrEqual(MAX);
    for (const r of checked) expect(r.status).toBe(422);
  });

  it("a successful change does not count", async () => {
    const u = await userWith(org, "member");
    let password = u.password;
    for (let i = 0; i < MAX + 1; i++) {
      const session = new Api(direct.baseUrl, undefined, (await signedIn(u.email, password)).cookie);
      const next = `a-brand-new-password-${i}`;
      expect((await session.post("/session/password", { current_password: password, new_password: next })).status).toBe(204);
      password = next;
    }
  });
});
