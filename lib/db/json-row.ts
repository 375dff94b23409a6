// A row (or an element of a json_agg) of the hot paths' hand-written statements, read field by
// field where it is mapped. Typed rows come with lib/db/query.ts; these go once the obligation
// loaders are converted (docs/architecture.md, "Database access").
// biome-ignore lint/suspicious/noExplicitAny: the one declaration of an untyped raw row, until the hot paths are converted
export type JsonRow = Record<string, any>;
