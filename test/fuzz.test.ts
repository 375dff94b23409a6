import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { inject } from "vitest";
import { baseUrl } from "./support/api";
import { newOrg, signedIn, TEST_PASSWORD, type OrgFixture } from "./support/fixtures";
import { registerObligation } from "./support/obligations";
import { recordPayment } from "./support/payments";
import { RecipientClient, requestIdOf, tokenOf } from "./support/recipient";
import { ERROR_STATUS } from "@/lib/errors";

// Fuzzes every operation of the served OpenAPI document with mutations of a valid request
// (wrong types, missing and extra fields, huge and deep values, bad amounts and dates,
// unicode edge cases, broken multipart, bad headers and paths) and asserts, for each answer:
// no 5xx, an error is exactly the contract's envelope with the status of its code, and a
// refused request changed none of the organization's stored rows. Deterministic (seeded)
// and bounded: at most MAX_CASES requests and BUDGET_MS per run.
const MAX_CASES = 4000;
const BUDGET_MS = 85_000;

type Case = { label: string; method: string; path: string; headers: Record<string, string>; body?: BodyInit; query?: string };
type Doc = { paths: Record<string, Record<string, any>> };

// Deterministic PRNG (mulberry32), so a failure names a case that reproduces.
function rng(seed: number) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const deep = (n: number): unknown => {
  let v: unknown = "x";
  for (let i = 0; i < n; i++) v = { a: v };
  return v;
};
const deepText = (n: number) => `${'{"a":'.repeat(n)}1${"}".repeat(n)}`;

// Values that replace a field: wrong types, edges of amounts and dates, unicode.
const VALUES: unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  1e308,
  -0,
  "",
  " ",
  "x".repeat(5000),
  [],
  {},
  [1, 2],
  { a: 1 },
  "\u0000",
  "a\u0000b",
  "\ud800",
  "x\udc00",
  "💥",
  "\u202e\u200b",
  "e\u0301",
  "\uffff",
  "ℌ𝔢𝔩𝔩𝔬",
  "9".repeat(40),
  "9223372036854775808",
  "-1",
  "0",
  "1.5",
  "1e3",
  " 100",
  "０１",
  "NaN",
  "Infinity",
  "2026-02-30",
  "0000-00-00",
  "2026-13-01",
  "26-01-01",
  "2026-01-01T00:00:00Z",
  "9999-12-31",
  "XXX",
  "eur",
  "not-a-uuid",
  "00000000-0000-0000-0000-000000000000",
  "<script>alert(1)</script>",
  "' OR 1=1 --",
  "http://127.0.0.1:1/x",
  "javascript:alert(1)",
  deep(40),
  deep(10),
];

const TEXT_BODIES = ["", "{", "[", "nul", '{"a":}', "\u0000", deepText(10_000), `[${"[".repeat(5000)}`, '"just a string"', "42", "null", "[]", "\ufeff{}"];

function paths(v: unknown, prefix: string[] = [], depth = 0): string[][] {
  if (depth > 2 || typeof v !== "object" || v === null || Array.isArray(v)) return [];
  return Object.entries(v).flatMap(([k, x]) => [[...prefix, k], ...paths(x, [...prefix, k], depth + 1)]);
}
function withPath(body: any, p: string[], value: unknown | typeof REMOVE): any {
  const copy = structuredClone(body);
  let o = copy;
  for (const k of p.slice(0, -1)) o = o[k];
  if (value === REMOVE) delete o[p[p.length - 1]];
  else o[p[p.length - 1]] = value;
  return copy;
}
const REMOVE = Symbol("remove");

function multipart(parts: string[], boundary = "fuzzboundary"): { body: string; type: string } {
  return { body: `${parts.map((p) => `--${boundary}\r\n${p}`).join("\r\n")}\r\n--${boundary}--\r\n`, type: `multipart/form-data; boundary=${boundary}` };
}
const field = (name: string, value: string) => `Content-Disposition: form-data; name="${name}"\r\n\r\n${value}`;
const file = (name: string, content: string, type = "application/pdf") =>
  `Content-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n${content}`;
const PDF = "%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF";

// Org rows as one fingerprint per table: any change by a refused request shows up. Usage
// bookkeeping that any authenticated request may refresh (an API key's last_used_at, a
// session's last_seen_at, at most once a minute) is not stored data of the request, nor is
// the list's cache of projections (table obligation_projections, left out of the tables),
// which a GET /obligations may store (lib/obligations/stored-projection.ts).
// What other test files' webhook flushers change meanwhile (they flush every organization of the
// shared server: a delivery's attempts and the endpoint's failure bookkeeping) is not the
// fuzzed request's doing: left out, like the deliveries themselves (their events are compared).
const ROW = `(to_jsonb(x) - 'last_used_at' - 'last_seen_at' - 'last_success_at' - 'last_failure_at' - 'consecutive_failures' - 'failing_since')::text`;
async function snapshot(client: pg.Client, tables: string[], orgId: string): Promise<string> {
  const sql = tables
    .map(
      (t) =>
        `SELECT '${t}' AS t, count(*)::text AS n, coalesce(md5(string_agg(${ROW}, ',' ORDER BY ${ROW})), '') AS h FROM "${t}" x WHERE organization_id = $1`,
    )
    .join(" UNION ALL ");
  const r = await client.query(sql, [orgId]);
  return r.rows.map((row) => `${row.t}:${row.n}:${row.h}`).join("|");
}

describe("fuzz: every operation of the served document", () => {
  let org: OrgFixture;
  let doc: Doc;
  let cookie: string;
  let recipient: RecipientClient;
  let ids: Record<string, string>;

  beforeAll(async () => {
    org = await newOrg("Fuzz Org");
    doc = (await fetch(`${baseUrl()}/api/v1/openapi.json`).then((r) => r.json())) as Doc;
    cookie = (await signedIn(org.email, TEST_PASSWORD)).cookie!;
    const reg = await registerObligation(org.api);
    const payment = await recordPayment(org.api);
    const ctx = await org.api.post("/business-contexts", { type: "project", name: "Fuzz project" });
    const hosted = reg.payment_request?.hosted_url as string | undefined;
    recipient = new RecipientClient(baseUrl());
    if (hosted) {
      const rid = requestIdOf(hosted);
      await recipient.post(`/recipient/contexts/${rid}/session`, { token: tokenOf(hosted) });
      await recipient.post("/recipient/session", { token: tokenOf(hosted) });
    }
    ids = {
      id: reg.obligation.id,
      obligation: reg.obligation.id,
      request: hosted ? requestIdOf(hosted) : randomUUID(),
      payment: payment.id,
      context: ctx.body?.id ?? randomUUID(),
    };
  });

  it("answers every mutated request with a 4xx envelope or a success, never a 5xx, and refusals change nothing", { timeout: BUDGET_MS + 60_000 }, async () => {
    const rand = rng(20261124);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)];
    const ops: { method: string; template: string; op: any }[] = [];
    for (const [template, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) ops.push({ method: method.toUpperCase(), template, op });
    }
    expect(ops.length).toBeGreaterThan(30);

    const idFor = (template: string, name: string) =>
      name !== "id"
        ? (ids[name] ?? randomUUID())
        : template.startsWith("/payments")
          ? ids.payment
          : template.startsWith("/business-contexts")
            ? ids.context
            : ids.id;
    const fillPath = (template: string, override?: (name: string) => string) =>
      template.replace(/\{(\w+)\}/g, (_, name: string) => (override ? override(name) : idFor(template, name)));

    function baseHeaders(op: any, template: string, method: string): Record<string, string> {
      const h: Record<string, string> = {};
      const sec = Object.keys(op.security?.[0] ?? {})[0];
      if (sec === "apiKey") h.authorization = `Bearer ${org.apiKey}`;
      else if (sec === "issuerSession") h.cookie = cookie;
      else if (sec === "recipientSession") h.cookie = recipient.jar.header(`/api/v1${fillPath(template)}`);
      else if (sec === "cronSecret") h.authorization = "Bearer wrong-secret";
      if (method === "POST") {
        h["idempotency-key"] = `fuzz-${randomUUID()}`;
        h["x-service-request"] = "1";
      }
      return h;
    }

    // Round-robin over the operations, PER_PASS cases of each per pass, so every operation is
    // fuzzed early however slow the machine is.
    const PER_PASS = 4;
    let rounds = 0; // completed passes over every operation
    function* cases(): Generator<Case> {
      const gens = ops.map((o) => opCases(o));
      for (; ; rounds++) for (const g of gens) for (let k = 0; k < PER_PASS; k++) yield g.next().value as Case;
    }
    function* opCases({ method, template, op }: { method: string; template: string; op: any }): Generator<Case> {
      for (let round = 0; ; round++) {
        {
          const headers = baseHeaders(op, template, method);
          const json = op.requestBody?.content?.["application/json"];
          const isMultipart = !!op.requestBody?.content?.["multipart/form-data"];
          const example = json?.example ?? {};
          const path = fillPath(template);
          const jsonCase = (label: string, body: unknown, extra: Record<string, string> = {}): Case => ({
            label: `${method} ${template} ${label}`,
            method,
            path,
            headers: { ...headers, "content-type": "application/json", ...extra, "idempotency-key": `fuzz-${randomUUID()}` },
            body: typeof body === "string" ? body : JSON.stringify(body),
          });
          // Bad paths: malformed encodings and ids in every parameter.
          if (template.includes("{")) {
            const bad = pick([
              "%",
              "%zz",
              "%C3%28",
              "%2e",
              "%2e%2e",
              "%00",
              "x",
              "%E0%A4%A",
              "a".repeat(300),
              "%ff%fe",
              "00000000-0000-0000-0000-00000000000g",
              randomUUID(),
            ]);
            yield { label: `${method} ${template} path=${bad}`, method, path: fillPath(template, () => bad), headers };
          }
          // Bad headers.
          const hv = pick<[string, string]>([
            ["authorization", "Bearer "],
            ["authorization", "Basic Zm9vOmJhcg=="],
            ["authorization", `Bearer ${"x".repeat(5000)}`],
            ["idempotency-key", ""],
            ["idempotency-key", "short"],
            ["idempotency-key", "k".repeat(201)],
            ["idempotency-key", "ÿÿÿÿÿÿÿÿÿ"],
            ["x-service-request", "0"],
            ["cookie", "fos_session=%; fos_recipient=\u00ff"],
            ["content-type", "text/plain"],
            ["content-type", "multipart/form-data"],
            ["x-request-id", "../../etc/passwd"],
            ["content-length", "99999999999"],
          ]);
          if (hv[0] !== "content-length")
            yield { label: `${method} ${template} header ${hv[0]}=${hv[1].slice(0, 20)}`, method, path, headers: { ...headers, [hv[0]]: hv[1] } };
          // Bad queries.
          const params = (op.parameters ?? []).filter((p: any) => p.in === "query").map((p: any) => p.name as string);
          if (method === "GET") {
            const name = params.length ? pick(params) : "unknown";
            const value = pick(["-1", "abc", "1e99", "%00", "%zz", "%ud800", "0", "101", "", "x".repeat(3000), "2026-02-30", "%ED%A0%80"]);
            yield { label: `${method} ${template} ?${name}=${value.slice(0, 20)}`, method, path: `${path}?${name}=${value}`, headers };
            yield { label: `${method} ${template} ?${name}[]=x&${name}=y&extra=1`, method, path: `${path}?${name}=1&${name}=2&extra=%00`, headers };
          }
          if (json || (method === "POST" && !isMultipart)) {
            // Four fields per pass (all of them over the passes): removed, or replaced.
            const all = paths(example);
            const fields = all.length <= 4 ? all : Array.from({ length: 4 }, (_, i) => all[(round * 4 + i) % all.length]);
            for (const p of fields) {
              if (rand() < 0.5) yield jsonCase(`remove ${p.join(".")}`, withPath(example, p, REMOVE));
              const v = pick(VALUES);
              yield jsonCase(`${p.join(".")}=${JSON.stringify(v)?.slice(0, 30)}`, withPath(example, p, v));
            }
            yield jsonCase("extra field", { ...example, [pick(["extra", "__proto__", "constructor", "\u0000", "id", ""])]: pick(VALUES) });
            yield jsonCase("whole body", pick(VALUES));
            yield jsonCase("text body", pick(TEXT_BODIES));
            if (round === 0) yield jsonCase("deep 10000", deepText(10_000));
          }
          if (isMultipart) {
            const form = op.requestBody.content["multipart/form-data"].schema?.properties ?? {};
            const kind = Object.keys(form).find((k) => k !== "file");
            const variants = [
              multipart([field("expected_version", "1"), file("x.pdf", PDF)]),
              multipart([field(kind ?? "kind", "\u0000"), file("x.pdf", PDF)]),
              multipart([field("expected_version", "abc"), file("x\u0000.pdf", PDF)]),
              multipart([file("x.pdf", "not a pdf at all", "application/pdf")]),
              multipart([field("expected_version", "1")]),
              multipart([field("expected_version", "1"), file("evil.html", "<html><script>1</script></html>", "text/html")]),
              {
                body: '--fuzzboundary\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF',
                type: "multipart/form-data; boundary=fuzzboundary",
              },
              { body: "garbage", type: "multipart/form-data; boundary=" },
              { body: "garbage", type: "multipart/form-data" },
              { body: PDF, type: "application/pdf" },
            ];
            const v = pick(variants);
            yield {
              label: `${method} ${template} multipart ${variants.indexOf(v)}`,
              method,
              path,
              headers: { ...headers, "content-type": v.type },
              body: v.body,
            };
          }
        }
      }
    }

    const db = new pg.Client({ connectionString: inject("databaseUrl") });
    await db.connect();
    try {
      const tables = (
        await db.query(
          `SELECT table_name FROM information_schema.columns WHERE column_name = 'organization_id' AND table_schema = current_schema() ORDER BY table_name`,
        )
      ).rows
        .map((r) => r.table_name as string)
        // idempotency_records: a refused request's stored answer (replayed for its key), by design
        .filter((t) => t !== "obligation_projections" && t !== "webhook_deliveries" && t !== "idempotency_records");
      let before = await snapshot(db, tables, org.organizationId);
      const started = Date.now();
      const statuses = new Map<number, number>();
      const failures: string[] = [];
      let n = 0;
      for (const c of cases()) {
        if (n >= MAX_CASES || Date.now() - started > BUDGET_MS || failures.length >= 20) break;
        n++;
        let res: Response;
        try {
          res = await fetch(`${baseUrl()}/api/v1${c.path}`, { method: c.method, headers: c.headers, body: c.body, redirect: "manual" });
        } catch (err) {
          failures.push(`${c.label}: no answer (${(err as Error).message})`);
          continue;
        }
        const text = await res.text();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        // Reads write nothing of the fingerprint (no transaction; the list's projection cache
        // is left out of it), so only mutations need a fresh fingerprint.
        const after = c.method === "GET" ? before : await snapshot(db, tables, org.organizationId);
        if (res.status >= 500) failures.push(`${c.label}: ${res.status} ${text.slice(0, 200)}`);
        else if (res.status >= 400) {
          let body: any;
          try {
            body = JSON.parse(text);
          } catch {
            body = undefined;
          }
          const code = body?.error?.code as keyof typeof ERROR_STATUS;
          const exact =
            res.headers.get("content-type")?.startsWith("application/json") &&
            body &&
            Object.keys(body).join() === "error" &&
            Object.keys(body.error).sort().join() === "code,message" &&
            typeof body.error.message === "string" &&
            body.error.message.length > 0 &&
            ERROR_STATUS[code] === res.status;
          if (!exact) failures.push(`${c.label}: ${res.status} not the envelope: ${text.slice(0, 200)}`);
          if (after !== before) failures.push(`${c.label}: refused with ${res.status} but changed stored rows`);
        }
        before = after;
      }
      const summary = `${n} requests (${rounds} full passes over ${ops.length} operations) in ${Date.now() - started} ms; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`;
      console.log(`fuzz: ${summary}`);
      expect(failures, summary).toEqual([]);
      // Every operation got at least one full pass of mutations, however slow the machine;
      // an unloaded 2-core machine runs the whole MAX_CASES within the budget.
      expect(rounds).toBeGreaterThanOrEqual(1);
    } finally {
      await db.end();
    }
  });
});
