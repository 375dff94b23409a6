// JSON with bigint as decimal strings: money never passes through a float.
// Wire objects carry money as strings already, so the plain (much faster: no replacer call
// per value) serialization is tried first; JSON.stringify throws on a bigint, and only then
// is the replacer used. The output is the same either way.
const bigintAsString = (_k: string, v: unknown) => (typeof v === "bigint" ? v.toString() : v);

// A value that is JSON text already (a stored list projection, lib/obligations/stored-projection.ts):
// stringifyJson writes the text itself where the value stands, without parsing it again.
// Anything else that serializes it (a plain JSON.stringify) is a mistake and throws.
export class JsonText<T = unknown> {
  constructor(readonly text: string) {}
  parse(): T {
    return JSON.parse(this.text) as T;
  }
  toJSON(): string {
    if (!embedded) throw new Error("JsonText is serialized by stringifyJson only");
    embedded.push(this.text);
    return `\u0000${embedded.length - 1}`;
  }
}

// The texts of the JsonText values met by the serialization in progress (JSON.stringify is
// synchronous: one at a time). Each stands in the output as the string "\u0000<n>", which no
// other value can be: stored text never holds U+0000 (PostgreSQL refuses it, and so does the
// request pipeline, lib/http/body.ts).
let embedded: string[] | null = null;
const PLACEHOLDER = /"\\u0000(\d+)"/g;

export const stringifyJson = (value: unknown): string => {
  const outer = embedded;
  embedded = [];
  try {
    let text: string;
    try {
      text = JSON.stringify(value);
    } catch (err) {
      if (!(err instanceof TypeError && /BigInt/i.test(err.message))) throw err;
      embedded = [];
      text = JSON.stringify(value, bigintAsString);
    }
    const texts = embedded;
    return texts.length === 0 ? text : text.replace(PLACEHOLDER, (_m, i: string) => texts[Number(i)]);
  } finally {
    embedded = outer;
  }
};
