// Quality of the reconciliation engine on the labeled set (test/support/labeled-reconciliation.ts):
// precision and recall of the automatic allocations and of the top suggestion, overall, by
// confidence level and per kind (automatic, top-1, top-5), with every wrong or missed case
// listed. The main organization runs with `auto_allocate: "confident"` and a 25.00 / 2 %
// bank-fee tolerance (QUALITY_MODE=reference_only for the default settings).
//
//   npm run bench:reconciliation-quality                      # PGlite, seed 20261124, scale 1
//   npm run bench:reconciliation-quality -- postgres://postgres@127.0.0.1:5433/postgres
//   QUALITY_SEED=7 QUALITY_SCALE=2 npm run bench:reconciliation-quality
//
// Runs the production build (built first when the sources changed) on a fresh PGlite data
// folder, or on a fresh database of the PostgreSQL server given (dropped at the end), and
// goes through the API only: POST /obligations, POST /bank-statements, GET
// /bank-statements/{id}, GET /payments/{id}, GET /payments/{id}/suggestions. Output: markdown
// on stdout, JSON in QUALITY_OUT (default bench-results/reconciliation-quality-<time>.json).
// Exit code 1 when a §12 target is missed: automatic allocations 100 % right, >= 80 % of the
// transactions with a true match allocated without a person (tolerance cases included: allocated
// and their shortfall credited; `confident` only), top-1 right >= 98 %, no suggestion above `low` for a
// transaction without a true match.
import { execSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { ensureBuilt } from "../build-state";
import { TEST_APP_SECRET, createTestDatabase, startServer } from "../../test/support/server";
import {
  CATEGORIES,
  QUALITY_SETTINGS,
  applySettings,
  type Category,
  type Outcome,
  type Ratio,
  figures,
  httpClient,
  labeledPlan,
  problems,
  runLabeledSet,
} from "../../test/support/labeled-reconciliation";

const adminUrl = process.argv.slice(2).find((a) => a.startsWith("postgres")) ?? process.env.QUALITY_DATABASE_URL;
const SEED = Number(process.env.QUALITY_SEED ?? 20261124);
const SCALE = Number(process.env.QUALITY_SCALE ?? 1);
const MODE = process.env.QUALITY_MODE === "reference_only" ? "reference_only" : "confident";
const OUT = process.env.QUALITY_OUT ?? path.join("bench-results", `reconciliation-quality-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
const uptime = () => execSync("uptime", { encoding: "utf8" }).trim();

const pct = (r: Ratio) => (r.value === null ? "–" : `${(r.value * 100).toFixed(1)} % (${r.n}/${r.of})`);

async function main() {
  ensureBuilt();
  const before = uptime();
  console.log(`machine: ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB; ${before}`);
  const databaseUrl = adminUrl ? await createTestDatabase(adminUrl) : undefined;
  const server = await startServer({ databaseUrl, label: "quality", env: { LOG_LEVEL: "warn" } });
  const t0 = performance.now();
  let outcomes: Outcome[];
  try {
    process.env.DATABASE_URL = server.databaseUrl;
    process.env.APP_SECRET = TEST_APP_SECRET;
    process.env.LOG_LEVEL = "silent";
    const { createOrganization } = await import("@/lib/organizations/create-organization");
    const { disconnectDb } = await import("@/lib/db/client");
    const owner = { email: `quality-${randomUUID()}@example.test`, password: "quality-password-123" };
    const org = (name: string, email: string) => createOrganization({ name, ownerEmail: email, ownerPassword: owner.password });
    const main = await org("Labeled Set Org", owner.email);
    const other = await org("Other Tenant Org", `quality-${randomUUID()}@example.test`);
    await disconnectDb();
    if (MODE === "confident") await applySettings(server.baseUrl, owner, QUALITY_SETTINGS);
    const plan = labeledPlan(SEED, SCALE);
    console.log(`labeled set: seed ${SEED}, scale ${SCALE}: ${plan.obligations.length} obligations, ${plan.cases.length} generated transactions`);
    outcomes = await runLabeledSet(plan, { main: httpClient(server.baseUrl, main.api_key), other: httpClient(server.baseUrl, other.api_key) }, { mode: MODE });
  } finally {
    await server.stop();
    if (adminUrl && databaseUrl) {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${new URL(databaseUrl).pathname.slice(1)} WITH (FORCE)`).catch(() => undefined);
      await c.end();
    }
  }
  const seconds = Math.round((performance.now() - t0) / 100) / 10;
  const f = figures(outcomes);
  const lines: string[] = [];
  const say = (s = "") => {
    lines.push(s);
    console.log(s);
  };
  say(`\n${f.transactions} transactions (${f.withTrueMatch} with a true match) on ${adminUrl ? "PostgreSQL" : "PGlite"}, \`${MODE}\`, in ${seconds} s\n`);
  say(`Allocated without a person (touchless, tolerance cases included): ${pct(f.touchless)}; top-1 right: ${pct(f.top.recall)}; top-5: ${pct(f.top5)}\n`);
  say(`| Measure | Precision | Recall |`);
  say(`|---|---:|---:|`);
  say(`| automatic allocations | ${pct(f.auto.precision)} | ${pct(f.auto.recall)} |`);
  say(`| top suggestion (any level) | ${pct(f.top.precision)} | ${pct(f.top.recall)} |`);
  for (const l of f.byLevel) say(`| top suggestion, ${l.level} and above | ${pct(l.precision)} | ${pct(l.recall)} |`);
  say();
  say(`Transactions without a true match that got a suggestion: ${f.byLevel.map((l) => `${l.level}+ ${l.negativesSuggested}`).join(", ")}\n`);
  say(`| Kind | Transactions | Automatic (right/made) | Automatic of true matches | Top-1 right | Top-5 | Suggested without a true match (levels) |`);
  say(`|---|---:|---:|---:|---:|---:|---|`);
  const cats = Object.keys(CATEGORIES) as Category[];
  const perCategory: Record<string, unknown> = {};
  for (const c of cats) {
    const os_ = outcomes.filter((o) => o.category === c);
    if (!os_.length) continue;
    const g = figures(os_);
    const positives = os_.filter((o) => o.expected.length > 0);
    const negLevels: Record<string, number> = {};
    for (const o of os_) if (o.expected.length === 0 && o.top) negLevels[o.top.confidence] = (negLevels[o.top.confidence] ?? 0) + 1;
    const autoMade = os_.filter((o) => o.auto.length > 0).length;
    perCategory[c] = g;
    const of = (n: number) => (positives.length ? `${n}/${positives.length}` : "–");
    say(
      `| ${c}: ${CATEGORIES[c]} | ${os_.length} | ${g.auto.precision.n}/${autoMade} | ${of(g.auto.precision.n)} | ${of(g.top.recall.n)} | ${of(g.top5.n)} | ${
        Object.entries(negLevels)
          .map(([l, n]) => `${l} ${n}`)
          .join(", ") || (positives.length ? "–" : "none")
      } |`,
    );
  }
  const bad = problems(outcomes);
  say(`\nWrong or missed (${bad.length}):`);
  for (const { kind, o } of bad)
    say(
      `- ${kind}: [${o.category}] ${o.note}; payment ${o.paymentId}; got ${
        o.top ? `${o.top.confidence} ${o.top.score} ${JSON.stringify(o.top.allocations.map((a) => [a.obligation_id.slice(0, 8), a.amount_minor]))}` : "nothing"
      }; expected ${JSON.stringify(o.expected.map((e) => [e.obligationId.slice(0, 8), e.amountMinor.toString()]))}`,
    );
  const after = uptime();
  say(`\n${after}`);
  const autoOk = f.auto.precision.value === null || f.auto.precision.value === 1;
  const touchOk = MODE !== "confident" || (f.touchless.value ?? 0) >= 0.8;
  const topOk = (f.top.recall.value ?? 0) >= 0.98;
  const lowOk = f.byLevel.find((l) => l.level === "medium")?.negativesSuggested === 0;
  const refOk = MODE !== "reference_only" || outcomes.every((o) => o.auto.length === 0 || o.category.startsWith("rf_"));
  const met = (ok: boolean) => (ok ? "met" : "MISSED");
  say(
    `targets: automatic allocations 100 % right: ${met(autoOk)}; >= 80 % touchless: ${met(touchOk)}; top-1 >= 98 %: ${met(topOk)}; nothing above low without a match: ${met(lowOk)}${MODE === "reference_only" ? `; automatic only with an RF reference: ${met(refOk)}` : ""}`,
  );
  mkdirSync(path.dirname(OUT), { recursive: true });
  writeFileSync(
    OUT,
    JSON.stringify(
      {
        seed: SEED,
        scale: SCALE,
        database: adminUrl ? "postgres" : "pglite",
        mode: MODE,
        seconds,
        uptimeBefore: before,
        uptimeAfter: after,
        figures: f,
        perCategory,
        report: lines,
      },
      (_k, v) => (typeof v === "bigint" ? v.toString() : v),
      2,
    ),
  );
  console.log(`results: ${OUT}`);
  process.exit(autoOk && touchOk && topOk && lowOk && refOk ? 0 : 1);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
