import type { Selectable } from "kysely";

// Columns selected under their camelCase names (`"o.organization_id as organizationId"`), so
// rows come out of the driver in the shape the code reads, with types derived from the
// generated row types (lib/generated/kysely) instead of a hand-written mapping.
export type CamelCase<S extends string> = S extends `${infer H}_${infer T}` ? `${H}${Capitalize<CamelCase<T>>}` : S;

// A generated table type as selected with camelCase names.
export type CamelRow<T> = { [K in keyof Selectable<T> & string as CamelCase<K>]: Selectable<T>[K] };

// A row as json_build_object / to_json give it: dates, timestamps and (cast ::text) bigints as text.
export type JsonOf<T> = { [K in keyof T]: T[K] extends infer V ? (V extends Date | bigint ? string : V) : never };

type Aliased<A extends string, C extends string> = C extends string ? `${A}.${C} as ${CamelCase<C>}` : never;

export const camelCase = <S extends string>(s: S): CamelCase<S> => s.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase()) as CamelCase<S>;

// `columns` of the table aliased `alias`, each as its camelCase name, for Kysely's select().
export function camelColumns<A extends string, C extends string>(alias: A, columns: readonly C[]): Aliased<A, C>[] {
  return columns.map((c) => `${alias}.${c} as ${camelCase(c)}` as Aliased<A, C>);
}

// Rows with camelCase field names as one JSON array under the columns' snake_case names (bigints
// as decimal text), for `json_populate_recordset(NULL::table, $n::json)`: rows of any number in
// one parameter, expanded into the columns' own types (dates and timestamps from ISO text).
export function columnsJson(rows: readonly object[]): string {
  const out = rows.map((r) => {
    const o: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(r)) o[snakeCase(k)] = typeof v === "bigint" ? v.toString() : v;
    return o;
  });
  return JSON.stringify(out);
}

const snakes = new Map<string, string>();
function snakeCase(field: string): string {
  let name = snakes.get(field);
  if (name === undefined) {
    name = field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    snakes.set(field, name);
  }
  return name;
}
