// Finding a credential's organization (docs/scaling.md, "Finding the organization first"): what
// each design adds to a request. (a) the route in the token: decoding it, on the CPU; (b) a
// lookup table (token hash -> organization): one more statement before the request's own, and
// one more row written per token issued. Runs on a scratch database of a PostgreSQL server.
//
//   npx tsx scripts/bench/token-routing.ts [postgres://postgres@127.0.0.1:5433/postgres] [rows]
//
// Prints microseconds per request: the route's decoding, and the lookup's round trip (mean and
// p99, sequential, one connection, a prepared statement) and insert.
import { randomBytes, randomUUID } from "node:crypto";
import pg from "pg";
import { randomToken } from "@/lib/crypto";
import { routedToken, routedTokenHash, tokenLookup } from "@/lib/auth/token-routing";

const adminUrl = process.argv[2] ?? "postgres://postgres@127.0.0.1:5433/postgres";
const rows = Number(process.argv[3] ?? 100_000);
const lookups = 5_000;

const us = (ns: bigint) => Number(ns) / 1000;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];

async function main() {
  // (a) the route: decode and hash a routed token (the hash is needed by both designs).
  const orgs = Array.from({ length: 1000 }, () => randomUUID());
  const tokens = Array.from({ length: 10_000 }, (_, i) => routedToken("fos_", orgs[i % orgs.length], randomToken(32)));
  let t = process.hrtime.bigint();
  for (let r = 0; r < 10; r++) for (const tok of tokens) tokenLookup(tok, "fos_");
  const routed = us(process.hrtime.bigint() - t) / (tokens.length * 10);
  t = process.hrtime.bigint();
  for (let r = 0; r < 10; r++) for (const tok of tokens) routedTokenHash("fos_", tok.slice(27));
  const hashOnly = us(process.hrtime.bigint() - t) / (tokens.length * 10);

  // (b) the lookup table, on a scratch database.
  const name = `token_routing_bench_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const c = new pg.Client({ connectionString: url.toString() });
  await c.connect();
  try {
    await c.query("CREATE TABLE token_routes (token_hash text PRIMARY KEY, organization_id uuid NOT NULL)");
    await c.query(`INSERT INTO token_routes SELECT encode(sha256(g::text::bytea), 'hex'), ($1::uuid[])[1 + g % 1000] FROM generate_series(1, $2::int) g`, [
      orgs,
      rows,
    ]);
    await c.query("ANALYZE token_routes");
    const hashes = (await c.query<{ token_hash: string }>("SELECT token_hash FROM token_routes ORDER BY random() LIMIT $1", [lookups])).rows.map(
      (r) => r.token_hash,
    );
    const lookup = { name: "route", text: "SELECT organization_id FROM token_routes WHERE token_hash = $1" };
    for (const h of hashes.slice(0, 200)) await c.query({ ...lookup, values: [h] }); // warm
    const times: number[] = [];
    for (const h of hashes) {
      t = process.hrtime.bigint();
      await c.query({ ...lookup, values: [h] });
      times.push(us(process.hrtime.bigint() - t));
    }
    const inserts: number[] = [];
    const insert = { name: "add", text: "INSERT INTO token_routes (token_hash, organization_id) VALUES ($1, $2)" };
    for (let i = 0; i < 2000; i++) {
      t = process.hrtime.bigint();
      await c.query({ ...insert, values: [randomBytes(32).toString("hex"), orgs[i % orgs.length]] });
      inserts.push(us(process.hrtime.bigint() - t));
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    console.log(
      JSON.stringify(
        {
          rows,
          route_decode_and_hash_us: Number(routed.toFixed(2)),
          hash_only_us: Number(hashOnly.toFixed(2)),
          lookup_statement_us: { mean: Number(mean(times).toFixed(1)), p99: Number(pct(times, 0.99).toFixed(1)) },
          lookup_insert_us: { mean: Number(mean(inserts).toFixed(1)), p99: Number(pct(inserts, 0.99).toFixed(1)) },
        },
        null,
        2,
      ),
    );
  } finally {
    await c.end();
    await admin.query(`DROP DATABASE ${name}`);
    await admin.end();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
