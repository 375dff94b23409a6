// The pgbench replay of scripts/bench/run.ts (its header says how it is built), shared with
// scripts/bench/scale-out.ts: statements captured from the PostgreSQL server log while the API
// serves requests one at a time, turned into pgbench scripts, replayed at a connection count.
import { execFileSync } from "node:child_process";
import { closeSync, openSync, readSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";

type Captured = { sql: string; params: (string | null)[] };

const LINE_START = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)? \S+ \[(\d+)\] (\w+): {2}(.*)$/;

export function readFrom(file: string, offset: number): string {
  const size = statSync(file).size;
  const fd = openSync(file, "r");
  try {
    const buf = Buffer.alloc(size - offset);
    readSync(fd, buf, 0, buf.length, offset);
    return buf.toString("utf8");
  } finally {
    closeSync(fd);
  }
}

// Statements (with their parameters) the given backends logged between two offsets of the log.
export function parseLog(text: string, pids: Set<number>): Captured[] {
  type Entry = { pid: number; level: string; text: string };
  const entries: Entry[] = [];
  for (const line of text.split("\n")) {
    const m = LINE_START.exec(line);
    if (m) entries.push({ pid: Number(m[1]), level: m[2], text: m[3] });
    else if (entries.length) entries[entries.length - 1].text += `\n${line}`;
  }
  const out: Captured[] = [];
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i];
    if (!pids.has(e.pid) || e.level !== "LOG") continue;
    let sql: string | undefined;
    const st = /^statement: ([\s\S]*)$/.exec(e.text);
    const ex = /^execute [^:]*: ([\s\S]*)$/.exec(e.text);
    if (st) sql = st[1];
    else if (ex) sql = ex[1];
    if (sql === undefined) continue;
    const params: (string | null)[] = [];
    const d = entries.slice(i + 1).find((x) => x.pid === e.pid);
    if (ex && d && d.level === "DETAIL" && d.text.startsWith("parameters: ")) {
      const re = /\$(\d+) = (NULL|'((?:[^']|'')*)')/g;
      for (const pm of d.text.matchAll(re)) params[Number(pm[1]) - 1] = pm[2] === "NULL" ? null : pm[3].replace(/''/g, "'");
    }
    out.push({ sql: sql.trimEnd(), params });
  }
  return out;
}

const quote = (v: string) => `'${v.replace(/'/g, "''")}'`;
const looksTimestamp = (v: string) => /^\d{4}-\d\d-\d\d([ T]\d\d:\d\d|$)/.test(v);
const looksJson = (v: string) => /^[[{]/.test(v);

function jsonStrings(v: string): string[] {
  const out: string[] = [];
  try {
    JSON.parse(v, (_k, x) => {
      if (typeof x === "string") out.push(x);
      return x;
    });
  } catch {
    /* not JSON after all */
  }
  return out;
}

function mapJsonStrings(v: string, f: (s: string) => string): string {
  try {
    return JSON.stringify(JSON.parse(v, (_k, x) => (typeof x === "string" ? f(x) : x)));
  } catch {
    return v;
  }
}

// One pgbench script from one captured request: literals inlined; the values new in this
// request get a per-transaction random tail (:r), the same for every occurrence.
function pgbenchScript(req: Captured[], other: Captured[], requestText: string): string {
  // A JSON parameter (rows written by lib/db/insert-rows.ts) carries the new ids inside it:
  // its strings are compared and randomized one by one.
  const otherValues = new Set(other.flatMap((s) => s.params.flatMap((p) => (p === null ? [] : looksJson(p) ? jsonStrings(p) : [p]))));
  const fresh = (v: string) => v.length >= 12 && !otherValues.has(v) && !looksTimestamp(v) && !looksJson(v) && !requestText.includes(v);
  const tail = (v: string) => (fresh(v) ? `${v.slice(0, -12)}:r` : v);
  const lines = ["\\set r random(100000000000, 999999999999)"];
  for (const s of req) {
    const sql = s.sql.replace(/\$(\d+)/g, (_m, n) => {
      const v = s.params[Number(n) - 1];
      if (v === null || v === undefined) return "NULL";
      if (looksJson(v)) return quote(mapJsonStrings(v, tail));
      return quote(tail(v));
    });
    // pgbench reads one statement per line unless it ends with a semicolon on its own.
    lines.push(`${sql.replace(/\s*\n\s*/g, " ").replace(/;\s*$/, "")};`);
  }
  return `${lines.join("\n")}\n`;
}

export function runPgbench(databaseUrl: string, files: string[], connections: number, seconds: number): number {
  const args = ["-n", "-M", "simple", "-c", String(connections), "-j", String(Math.min(connections, os.cpus().length)), "-T", String(seconds)];
  for (const f of files) args.push("-f", `${f}@1`);
  args.push(databaseUrl);
  const out = execFileSync("/usr/bin/pgbench", args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 64 << 20 });
  const m = /tps = ([\d.]+) \(without initial connection time\)/.exec(out);
  return m ? Number(m[1]) : NaN;
}

export async function backendPids(adminUrl: string, databaseUrl: string): Promise<Set<number>> {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    const name = new URL(databaseUrl).pathname.slice(1);
    const r = await c.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", [name]);
    return new Set(r.rows.map((x) => x.pid));
  } finally {
    await c.end();
  }
}

// Captures `n` requests one at a time and returns one pgbench script per request.
export async function capture(
  where: { adminUrl: string; pgLog: string },
  databaseUrl: string,
  dir: string,
  name: string,
  n: number,
  send: (i: number) => Promise<string>, // returns the request's own text (path + body)
): Promise<{ files: string[]; statements: number; selects: number; transactions: number }> {
  const reqs: { stmts: Captured[]; text: string }[] = [];
  for (let i = 0; i < n + 1; i++) {
    const pids = await backendPids(where.adminUrl, databaseUrl);
    const before = statSync(where.pgLog).size;
    const text = await send(i);
    await new Promise((r) => setTimeout(r, 150)); // let the server log flush
    const after = await backendPids(where.adminUrl, databaseUrl);
    for (const p of after) pids.add(p);
    reqs.push({ stmts: parseLog(readFrom(where.pgLog, before), pids), text });
  }
  const files: string[] = [];
  for (let i = 0; i < n; i++) {
    const f = path.join(dir, `${name}-${i}.sql`);
    writeFileSync(f, pgbenchScript(reqs[i].stmts, reqs[i + 1].stmts, reqs[i].text));
    files.push(f);
  }
  const s = reqs[0].stmts;
  return {
    files,
    statements: s.length,
    selects: s.filter((x) => /^\s*select/i.test(x.sql)).length,
    transactions: s.filter((x) => /^\s*begin/i.test(x.sql)).length,
  };
}
