// JSON with bigint as decimal strings: money never passes through a float.
// Wire objects carry money as strings already, so the plain (much faster: no replacer call
// per value) serialization is tried first; JSON.stringify throws on a bigint, and only then
// is the replacer used. The output is the same either way.
const bigintAsString = (_k: string, v: unknown) => (typeof v === "bigint" ? v.toString() : v);
export const stringifyJson = (value: unknown): string => {
  try {
    return JSON.stringify(value);
  } catch (err) {
    if (err instanceof TypeError && /BigInt/i.test(err.message)) return JSON.stringify(value, bigintAsString);
    throw err;
  }
};
