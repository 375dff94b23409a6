import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import pg from "pg";
import { inject } from "vitest";

// schema.prisma and the SQL migrations are written by hand (prisma migrate cannot run
// here): this test holds them together, against the database the server migrated.
type Field = { name: string; column: string; type: string; optional: boolean; list: boolean };
type Model = { name: string; table: string; fields: Field[] };

const SCALARS = new Set(["String", "Int", "BigInt", "Boolean", "DateTime", "Json", "Bytes", "Decimal", "Float"]);

function parseSchema(src: string): Model[] {
  const models: Model[] = [];
  for (const m of src.matchAll(/^model (\w+) \{([\s\S]*?)^\}/gm)) {
    const [, name, body] = m;
    const table = /@@map\("([^"]+)"\)/.exec(body)?.[1] ?? name;
    const fields: Field[] = [];
    for (const raw of body.split("\n")) {
      const line = raw.replace(/\/\/.*$/, "").trim();
      const f = /^(\w+)\s+(\w+)(\?|\[\])?(.*)$/.exec(line);
      if (!f || line.startsWith("@@")) continue;
      const [, fname, type, mod, rest] = f;
      if (!SCALARS.has(type)) continue; // relation fields have no column
      fields.push({
        name: fname,
        column: /@map\("([^"]+)"\)/.exec(rest)?.[1] ?? fname,
        type: `${type}${/@db\.(\w+)/.exec(rest)?.[1] ? `.${/@db\.(\w+)/.exec(rest)![1]}` : ""}`,
        optional: mod === "?",
        list: mod === "[]",
      });
    }
    models.push({ name, table, fields });
  }
  return models;
}

const PG_TYPES: Record<string, string[]> = {
  String: ["text"],
  "String.Uuid": ["uuid"],
  Int: ["integer"],
  BigInt: ["bigint"],
  Boolean: ["boolean"],
  DateTime: ["timestamp without time zone"],
  "DateTime.Timestamptz": ["timestamp with time zone"],
  "DateTime.Date": ["date"],
  Json: ["jsonb"],
  Bytes: ["bytea"],
};

describe("schema.prisma and the migrated database agree", () => {
  it("has a column of the right type and nullability for every model field, and no table or column the schema lacks", async () => {
    const models = parseSchema(readFileSync("prisma/schema.prisma", "utf8"));
    expect(models.length).toBeGreaterThan(20);
    const client = new pg.Client({ connectionString: inject("databaseUrl") });
    await client.connect();
    try {
      const { rows } = await client.query<{ table_name: string; column_name: string; data_type: string; is_nullable: string; udt_name: string }>(
        // base tables only: a Citus coordinator adds its views (citus_tables, citus_shards) to public
        `SELECT c.table_name, c.column_name, c.data_type, c.is_nullable, c.udt_name FROM information_schema.columns c
         JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
         WHERE c.table_schema = 'public'`,
      );
      const columns = new Map(rows.map((r) => [`${r.table_name}.${r.column_name}`, r]));
      const problems: string[] = [];
      for (const m of models) {
        for (const f of m.fields) {
          const col = columns.get(`${m.table}.${f.column}`);
          if (!col) {
            problems.push(`${m.name}.${f.name}: no column ${m.table}.${f.column}`);
            continue;
          }
          if (f.list) {
            if (col.data_type !== "ARRAY") problems.push(`${m.name}.${f.name}: expected an array column`);
          } else if (!(PG_TYPES[f.type] ?? []).includes(col.data_type)) {
            problems.push(`${m.name}.${f.name}: ${f.type} vs ${col.data_type}`);
          }
          if ((col.is_nullable === "YES") !== f.optional) problems.push(`${m.name}.${f.name}: nullability differs`);
        }
      }
      const known = new Set(models.flatMap((m) => m.fields.map((f) => `${m.table}.${f.column}`)));
      for (const key of columns.keys()) {
        if (!key.startsWith("schema_migrations.") && !known.has(key)) problems.push(`column ${key} has no field in schema.prisma`);
      }
      expect(problems).toEqual([]);
    } finally {
      await client.end();
    }
  });
});
