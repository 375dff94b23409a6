// CPU cost per statement of the typed query builder (lib/db/query.ts) against today's `sql()`
// with hand-written text, without a database: both send nothing here (the connection answers
// at once with no rows), so the difference is what Kysely adds on the CPU per statement
// (building the query tree, compiling it to text, its executor) before lib/db/client.ts's own work.
//
//   npx tsx scripts/bench/query-builder.ts [iterations]
//
// Prints, per statement shape, microseconds of CPU (user + system) per statement for: the
// hand-written text (the baseline), Kysely's compile() alone, and a whole Kysely execute().
import { randomUUID } from "node:crypto";
import { type CompiledQuery, type DatabaseConnection, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, sql as raw } from "kysely";
import type { DB } from "@/lib/generated/kysely/database";

const iterations = Number(process.argv[2] ?? 100_000);

// The dialect of lib/db/query.ts with a connection that answers at once.
let sent = 0;
const connection: DatabaseConnection = {
  executeQuery: async (c: CompiledQuery) => {
    sent += c.parameters.length;
    return { rows: [] };
  },
  streamQuery: () => {
    throw new Error("not used");
  },
};
const k = new Kysely<DB>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => ({
      init: async () => undefined,
      acquireConnection: async () => connection,
      beginTransaction: async () => undefined,
      commitTransaction: async () => undefined,
      rollbackTransaction: async () => undefined,
      releaseConnection: async () => undefined,
      destroy: async () => undefined,
    }),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

// The baseline: what `sql(tx, text, values)` costs before lib/db/client.ts, a constant text and an array.
const baseline = async (_text: string, values: unknown[]) => {
  sent += values.length;
  return [] as unknown[];
};

const org = randomUUID();
const id = randomUUID();
type Shape = { name: string; text: () => Promise<unknown>; build: () => { compile(): CompiledQuery; execute(): Promise<unknown> } };
const shapes: Shape[] = [
  {
    name: "select by key (payment instructions of an organization)",
    text: () => baseline("SELECT currency, account_holder, iban, bic FROM payment_instructions WHERE organization_id = $1::uuid ORDER BY currency", [org]),
    build: () =>
      k.selectFrom("payment_instructions").select(["currency", "account_holder", "iban", "bic"]).where("organization_id", "=", org).orderBy("currency"),
  },
  {
    name: "insert of one row (an event)",
    text: () =>
      baseline(
        "INSERT INTO events (id, organization_id, type, actor_type, actor_id, actor_label, obligation_id, data) VALUES ($1::uuid, $2::uuid, $3, $4, $5, $6, $7::uuid, $8::jsonb)",
        [id, org, "obligation.registered", "api_key", "k", "key", id, "{}"],
      ),
    build: () =>
      k.insertInto("events").values({
        id,
        organization_id: org,
        type: "obligation.registered",
        actor_type: "api_key",
        actor_id: "k",
        actor_label: "key",
        obligation_id: id,
        data: "{}",
      }),
  },
  {
    name: "join, filter, order, limit (a context's obligations)",
    text: () =>
      baseline(
        `SELECT o.id, o.reference, o.status, o.amount_minor, l.relationship_type, l.id AS link_id FROM obligation_context_links l
         JOIN obligations o ON o.id = l.obligation_id AND o.organization_id = l.organization_id
         WHERE l.organization_id = $1::uuid AND l.context_id = $2::uuid ORDER BY l.created_at DESC, l.id DESC LIMIT $3`,
        [org, id, 50],
      ),
    build: () =>
      k
        .selectFrom("obligation_context_links as l")
        .innerJoin("obligations as o", (j) => j.onRef("o.id", "=", "l.obligation_id").onRef("o.organization_id", "=", "l.organization_id"))
        .select(["o.id", "o.reference", "o.status", "o.amount_minor", "l.relationship_type", "l.id as link_id"])
        .where("l.organization_id", "=", org)
        .where("l.context_id", "=", id)
        .orderBy("l.created_at", "desc")
        .orderBy("l.id", "desc")
        .limit(50),
  },
  {
    name: "grouped aggregate with raw expressions (aging)",
    text: () =>
      baseline(
        `SELECT organization_role AS role, currency, count(*)::int AS n, sum(amount_minor - allocated_minor)::text AS outstanding
         FROM obligations WHERE organization_id = $1::uuid AND status <> 'RECONCILED' GROUP BY 1, 2`,
        [org],
      ),
    build: () =>
      k
        .selectFrom("obligations")
        .select([
          "organization_role as role",
          "currency",
          raw<number>`count(*)::int`.as("n"),
          raw<string>`sum(amount_minor - allocated_minor)::text`.as("outstanding"),
        ])
        .where("organization_id", "=", org)
        .where("status", "<>", "RECONCILED")
        .groupBy(["organization_role", "currency"]),
  },
];

function cpuMicros(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

async function measure(fn: () => unknown): Promise<number> {
  for (let i = 0; i < 5_000; i++) await fn(); // warm up (JIT)
  const start = cpuMicros();
  for (let i = 0; i < iterations; i++) await fn();
  return (cpuMicros() - start) / iterations;
}

async function main() {
  console.log(`node ${process.version}, ${iterations} statements per figure; µs of CPU per statement`);
  console.log("| statement | sql() text | Kysely compile() | Kysely execute() | added by execute() |");
  console.log("|---|---:|---:|---:|---:|");
  for (const s of shapes) {
    const text = await measure(s.text);
    const compile = await measure(() => s.build().compile());
    const execute = await measure(() => s.build().execute());
    console.log(`| ${s.name} | ${text.toFixed(2)} | ${compile.toFixed(2)} | ${execute.toFixed(2)} | ${(execute - text).toFixed(2)} |`);
  }
  if (sent < 0) console.log(sent); // keeps the work observable
}

void main();
