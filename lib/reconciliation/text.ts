// Text rules of the matching engine: how remittance information is cut into tokens, how an
// identifier (invoice number, obligation reference) is found in it as a whole, and how
// party names are compared. Pure functions; unit-tested in text.test.ts.

// A token is a maximal run of letters and digits, where `-`, `/` and `_` join two runs
// (`INV-2026-12`, `PO/77`), and `.` joins two runs only between digits (`2026.001`, but
// `no.INV-12` is `no` + `INV-12`). Everything else (spaces, `,;:()#"'` and a `.` after a
// letter) separates. Tokens are compared upper-cased.
//
// Consequences, on purpose: `INV-12` is not found in `INV-123`, `XINV-12`, `INV-12-A` or
// `INV-12/2026` (each is one longer token), and is found in `Invoice INV-12.`,
// `(INV-12)`, `#INV-12` and `inv-12,INV-13`.
// Read by a scan of code points (remittance text is uploaded text: recheck finds the pattern
// form of this rule polynomial, test/redos.test.ts).
const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;
const DIGIT = /^\p{N}$/u;

export function tokenize(text: string): string[] {
  const chars = Array.from(text.normalize("NFC"));
  const word = (k: number) => k < chars.length && LETTER_OR_DIGIT.test(chars[k]);
  const out: string[] = [];
  for (let i = 0; i < chars.length; ) {
    if (!word(i)) {
      i++;
      continue;
    }
    const start = i;
    for (;;) {
      while (word(i)) i++;
      const j = chars[i];
      const joins = j === "-" || j === "/" || j === "_" || (j === "." && DIGIT.test(chars[i - 1]) && i + 1 < chars.length && DIGIT.test(chars[i + 1]));
      if (!joins || !word(i + 1)) break;
      i++;
    }
    out.push(chars.slice(start, i).join("").toUpperCase());
  }
  return out;
}

// Letters and digits only, upper-cased: `OBL-7K3M` -> `OBL7K3M`.
export const compact = (s: string): string => s.replace(/[^\p{L}\p{N}]/gu, "").toUpperCase();

// Identifiers shorter than this (in letters and digits) are never searched for: `12` or
// `A1` would be found in amounts and dates of almost any remittance text.
export const MIN_IDENTIFIER_LENGTH = 3;

// Whether `identifier` appears in the tokens as a whole: its own tokens, in order, as a
// contiguous run of the text's tokens; or, for a one-token identifier, a text token with
// the same letters and digits (`INV12` for `INV-12`: banks drop hyphens). Never a part of
// a longer token.
export function containsIdentifier(textTokens: readonly string[], identifier: string): boolean {
  return identifierIndex(textTokens).has(identifier);
}

// Bounded memo for pure string functions the engine calls for every candidate of every
// payment (a 10,000-transaction import meets the same names and identifiers again and again).
function memo<T>(fn: (s: string) => T, max = 50_000): (s: string) => T {
  const cache = new Map<string, T>();
  return (s) => {
    let v = cache.get(s);
    if (v === undefined) {
      if (cache.size >= max) cache.clear();
      v = fn(s);
      cache.set(s, v);
    }
    return v;
  };
}
const identifierTokens = memo((id: string) => ({ tokens: tokenize(id), compact: compact(id) }));

// The tokens of one text prepared for many identifier look-ups (containsIdentifier's rules):
// a one-token identifier is a set look-up instead of a pass over the text.
export function identifierIndex(textTokens: readonly string[]): { has(identifier: string): boolean } {
  const tokenSet = new Set(textTokens);
  let compactSet: Set<string> | undefined;
  return {
    has(identifier) {
      const id = identifierTokens(identifier);
      if (id.compact.length < MIN_IDENTIFIER_LENGTH || id.tokens.length === 0) return false;
      const n = id.tokens.length;
      if (n === 1) {
        if (tokenSet.has(id.tokens[0])) return true;
      } else {
        for (let i = 0; i + n <= textTokens.length; i++) {
          let ok = true;
          for (let j = 0; j < n; j++) {
            if (textTokens[i + j] !== id.tokens[j]) {
              ok = false;
              break;
            }
          }
          if (ok) return true;
        }
      }
      compactSet ??= new Set(textTokens.map(compact));
      return compactSet.has(id.compact);
    },
  };
}

// Legal forms dropped when comparing names (after lower-casing, accent folding and
// removing dots, so `B.V.` is `bv` and `S.à r.l.` is `sarl`).
export const LEGAL_FORMS = new Set([
  "ltd",
  "limited",
  "plc",
  "llp",
  "lp",
  "llc",
  "inc",
  "incorporated",
  "corp",
  "corporation",
  "co",
  "company",
  "gmbh",
  "mbh",
  "ag",
  "kg",
  "kgaa",
  "ohg",
  "ug",
  "ev",
  "eg",
  "se",
  "sa",
  "sas",
  "sasu",
  "sarl",
  "eurl",
  "sca",
  "snc",
  "bv",
  "nv",
  "vof",
  "cv",
  "srl",
  "spa",
  "sapa",
  "sl",
  "slu",
  "ab",
  "as",
  "asa",
  "aps",
  "oy",
  "oyj",
  "hf",
  "pty",
  "pte",
  "kk",
  "sro",
  "kft",
  "zrt",
  "sp",
  "zoo",
  "doo",
  "ooo",
]);

// A party name for comparison: accents folded (`Müller` -> `muller`), `&` -> `and`,
// lower case, dots and apostrophes removed (`B.V.` -> `bv`, `O'Brien` -> `obrien`), other
// punctuation as spaces, legal forms and a leading `the` dropped, single spaces. `Northwind Traders Ltd.`, `NORTHWIND TRADERS LIMITED`
// and `The Northwind-Traders` all become `northwind traders`.
export const normalizeName = memo(normalizeNameOnce);

function normalizeNameOnce(name: string): string {
  const folded = name
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .replace(/ß/g, "ss")
    .replace(/[Ææ]/g, "ae")
    .replace(/[Øø]/g, "o")
    .replace(/ı/g, "i")
    .replace(/&/g, " and ")
    .toLowerCase()
    .replace(/[.'’`´]/g, "")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
  const words = folded.split(" ").filter((w) => w !== "");
  // `gmbh & co kg` -> drop every legal-form word; keep a name that is only legal forms.
  const kept = words.filter((w) => !LEGAL_FORMS.has(w));
  const out = kept.length > 0 ? kept : words;
  // `Müller & Söhne GmbH & Co. KG` leaves a dangling `and` once the legal forms are gone.
  while (out.length > 1 && out[out.length - 1] === "and") out.pop();
  if (out.length > 1 && out[0] === "the") out.shift();
  return out.join(" ");
}

// The name as compared (compareNames, payer aliases): normalizeName with the
// transliterations made one (`Müller` and `MUELLER` -> `muller`).
export const comparableName = memo((name: string) => normalizeName(name).split(" ").map(transliterate).join(" "));

export type NameMatch = "same" | "similar" | "different";

// `same`: equal after normalization. `similar`: every word of the shorter name is a word of
// the longer one and the shorter has at least 4 letters (`northwind` vs `northwind traders`;
// banks truncate and drop words). Otherwise `different`; an empty name is `different`.
export function compareNames(a: string, b: string): NameMatch {
  const x = comparableName(a);
  const y = comparableName(b);
  if (x === "" || y === "") return "different";
  if (x === y) return "same";
  const [short, long] = x.length <= y.length ? [x, y] : [y, x];
  if (short.replace(/ /g, "").length < 4) return "different";
  const longWords = new Set(long.split(" "));
  if (short.split(" ").every((w) => longWords.has(w))) return "similar";
  // Banks cut names at a fixed width: the shorter is a prefix of the longer, cut at a word
  // boundary or inside a word of letters (`northwind trad`), never inside a number
  // (`debtor 12` is not `debtor 123`).
  if (short.length >= 8 && long.startsWith(short)) {
    const next = long[short.length];
    if (next === " " || (/\p{L}$/u.test(short) && /\p{L}/u.test(next))) return "similar";
  }
  return "different";
}

// The key the database narrows a counterparty's obligations by (migration 0007 indexes
// lower(left(name, 4)) of the debtor and creditor names): the first four characters of the
// trimmed name, lower-cased. Mirrors the SQL expression exactly.
export function nameKey(name: string): string {
  return Array.from(name.trim()).slice(0, 4).join("").toLowerCase();
}

// The spellings of one letter across alphabets and keyboards made one, on lower-case ASCII
// after accent folding: `ue`/`u` (Müller, MUELLER), `oe`/`o` (Nørre, NOERRE), `ae`/`a`,
// `aa`/`a` (Østergaard, OSTERGARD), `ss`/`s` (Straße, STRASSE). Applied to both names of a
// comparison, so it only ever makes two spellings of one name equal; two different names
// that become equal differ by nothing but such a pair.
export function transliterate(folded: string): string {
  let out = "";
  for (let i = 0; i < folded.length; i++) {
    const ch = folded[i];
    const next = folded[i + 1];
    if ((ch === "u" || ch === "o" || ch === "a") && next === "e") {
      out += ch;
      i++;
    } else if ((ch === "a" && next === "a") || (ch === "s" && next === "s")) {
      out += ch;
      i++;
    } else out += ch;
  }
  return out;
}

// ------------------------------------------------------------------ invoice numbers

const isDigit = (ch: string) => ch >= "0" && ch <= "9";
const isLetter = (ch: string) => (ch >= "A" && ch <= "Z") || (ch >= "a" && ch <= "z");

// ASCII letters and digits only, upper case: `inv-2026/0202` -> `INV20260202`. The same
// expression is fos_invoice_compact() of migration 0023 (an indexed look-up): keep in step.
export function invoiceCompact(s: string): string {
  let out = "";
  for (const ch of s) if (isDigit(ch) || isLetter(ch)) out += ch.toUpperCase();
  return out;
}

// invoiceCompact with each run of digits (delimited by anything that is not a digit)
// without its leading zeros (a run of zeros stays `0`): `INV-2026-0202`, `inv 2026/202` ->
// `INV2026202`. The same expression is fos_invoice_key() of migration 0023: keep in step.
export function invoiceKey(s: string): string {
  let out = "";
  let run = "";
  const flush = () => {
    if (run) out += run.replace(/^0+(?=\d)/, "");
    run = "";
  };
  for (const ch of s) {
    if (isDigit(ch)) run += ch;
    else {
      flush();
      if (isLetter(ch)) out += ch.toUpperCase();
    }
  }
  flush();
  return out;
}

// The runs of ASCII letters and of digits, in order: `F2026/0708` -> [F, 2026, 0708]. Two
// spellings of one number have the same groups (a remittance that splits `INV-5003` into
// `INV-500 3` does not).
export function invoiceGroups(s: string): string[] {
  const out: string[] = [];
  let cur = "";
  let kind = 0; // 1 letters, 2 digits
  for (const ch of s) {
    const k = isDigit(ch) ? 2 : isLetter(ch) ? 1 : 0;
    if (k !== kind || k === 0) {
      if (cur) out.push(cur);
      cur = "";
    }
    kind = k;
    if (k) cur += ch.toUpperCase();
  }
  if (cur) out.push(cur);
  return out;
}

// The short form of an invoice number: its leading letters and its last run of digits
// without leading zeros, when it has a run in between (`F2026/0708` -> `F708`,
// `INV-2026-0202` -> `INV202`); "" otherwise or when the last run has fewer than 3
// significant digits. Payers drop the year: `F-0708`.
export function invoiceCore(s: string): string {
  const g = invoiceGroups(s);
  if (g.length < 3 || !isLetter(g[0][0]) || !isDigit(g[g.length - 1][0])) return "";
  const last = g[g.length - 1].replace(/^0+/, "");
  return last.length >= 3 ? g[0] + last : "";
}

// The last run of digits without leading zeros (`INV-2026-0202` -> `202`), "" when it has
// fewer than 3 significant digits or the number is digits only.
export function invoiceTail(s: string): string {
  const g = invoiceGroups(s);
  if (g.length < 2 || !isDigit(g[g.length - 1][0])) return "";
  const last = g[g.length - 1].replace(/^0+/, "");
  return last.length >= 3 ? last : "";
}

// One character mistyped (a substitution) or two neighbours swapped (a transposition),
// between strings of the same length of at least 5: `INV2026203` / `INV2026202`,
// `INV2026220` / `INV2026202`. Equal strings are not one edit apart.
export function oneEditApart(a: string, b: string): boolean {
  if (a.length !== b.length || a.length < 5 || a === b) return false;
  let first = -1;
  let diffs = 0;
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) {
      if (++diffs > 2) return false;
      if (first < 0) first = i;
    }
  }
  if (diffs === 1) return true;
  return a[first] === b[first + 1] && a[first + 1] === b[first] && a[first] !== a[first + 1];
}
