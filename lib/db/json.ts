import { type Expression, type RawBuilder, type Selectable, sql as raw } from "kysely";
import { type CamelCase, camelCase, type JsonOf } from "@/lib/db/camel";

// Rows built as JSON inside a statement (a list part read with its parent in one statement),
// typed from the generated row types: JsonOf of lib/db/camel.ts (timestamps, dates and the
// bigints cast to text arrive as text).

type Columns<T, C extends keyof T> = { [K in C]: Selectable<T>[K & keyof Selectable<T>] };
type CamelColumns<T, C extends keyof T & string> = { [K in C as CamelCase<K>]: Selectable<T>[K & keyof Selectable<T>] };

// json_build_object of `columns` of the row aliased `alias`, under their own names; the bigint
// columns in `asText` as decimal text (no precision lost on the way through JSON).
export function jsonRow<T, C extends keyof T & string>(alias: string, columns: readonly C[], asText: readonly C[] = []): RawBuilder<JsonOf<Columns<T, C>>> {
  return buildObject(alias, columns, asText, (c) => c);
}

// The same under the columns' camelCase names.
export function jsonCamelRow<T, C extends keyof T & string>(alias: string, columns: readonly C[]): RawBuilder<JsonOf<CamelColumns<T, C>>> {
  return buildObject(alias, columns, [], camelCase);
}

function buildObject<R>(alias: string, columns: readonly string[], asText: readonly string[], key: (c: string) => string): RawBuilder<R> {
  const pairs = columns.flatMap((c) => {
    const ref = raw.ref(`${alias}.${c}`);
    return [raw.lit(key(c)), asText.includes(c) ? raw`${ref}::text` : ref];
  });
  return raw<R>`json_build_object(${raw.join(pairs)})`;
}

// The JSON array of `row` over the rows of its query, in the order of `order`; '[]' for none.
export function jsonAgg<O>(row: Expression<O>, ...order: Expression<unknown>[]): RawBuilder<O[]> {
  return raw<O[]>`coalesce(json_agg(${row} ORDER BY ${raw.join(order)}), '[]')`;
}

// The rows of `rows` (a query whose columns include created_at and id), each as to_json gives
// it, in one JSON array ordered by (created_at, id): oldest first or newest first.
export function rowsJson<O extends { created_at: unknown; id: unknown }>(rows: Expression<O>, order: "oldest first" | "newest first"): RawBuilder<JsonOf<O>[]> {
  const by = order === "oldest first" ? raw`x.created_at, x.id` : raw`x.created_at DESC, x.id DESC`;
  return raw<JsonOf<O>[]>`(SELECT coalesce(json_agg(to_json(x) ORDER BY ${by}), '[]') FROM ${rows} x)`;
}
