// JSON with bigint as decimal strings: money never passes through a float.
export const stringifyJson = (value: unknown): string => JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? v.toString() : v));
