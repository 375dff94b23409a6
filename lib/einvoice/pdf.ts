import { constants, inflateRawSync } from "node:zlib";

// Factur-X / ZUGFeRD / XRechnung-in-PDF: the embedded invoice XML. The PDF is read by this
// small object reader rather than a full PDF library, because the point is bounded work:
// pdf.js's getAttachments() decodes every embedded file in full, whatever its filters, so a
// few KB of nested Flate (or one CCITT or JBIG2 stream) expand to gigabytes on the event
// loop. Here only the wanted attachment is decoded, only through filters whose output is
// capped at every stage, and object streams share one budget.
export const INVOICE_ATTACHMENT_NAMES = ["factur-x.xml", "zugferd-invoice.xml", "ZUGFeRD-invoice.xml", "xrechnung.xml"] as const;

export type PdfAttachment = { name: string; content: Uint8Array };

export class PdfUnreadable extends Error {}
// Refusals that end the whole read, where a merely damaged object would be skipped.
class PdfTooCostly extends PdfUnreadable {}
// A damaged object is skipped, never reported: one shared error, as a fresh one per object
// (with its stack trace) would cost more than the parsing.
const DAMAGED = new PdfUnreadable("the PDF has a damaged object");

// Object streams hold dictionaries only; a real PDF within the upload bound needs far less.
const OBJECT_STREAM_BUDGET_FACTOR = 4;
const MAX_FILTERS = 4;
const MAX_NESTING = 64;
const MAX_TREE_NODES = 10_000;
const PARSE_WORK_FACTOR = 4;
// Real invoices have hundreds of objects; a few KB each would still be far within this.
const MAX_OBJECTS = 100_000;
const MAX_TRAILERS = 1_000; // one per revision

class PdfRef {
  constructor(
    readonly num: number,
    readonly gen: number,
  ) {}
}
class PdfName {
  constructor(readonly name: string) {}
}
// Bytes as a latin1 string.
class PdfString {
  constructor(readonly bytes: string) {}
}
class PdfKeyword {
  constructor(readonly word: string) {}
}
class PdfStream {
  constructor(
    readonly dict: Map<string, PdfObj>,
    readonly data: Uint8Array,
  ) {}
}
type PdfObj = null | boolean | number | PdfRef | PdfName | PdfString | PdfKeyword | PdfStream | PdfObj[] | Map<string, PdfObj>;

const isDict = (o: PdfObj | undefined): o is Map<string, PdfObj> => o instanceof Map;

// PDF white-space and delimiter characters (ISO 32000-1, 7.2.2), comments as white-space.
// Numbers, references and object headers are read by scans rather than patterns: a digit run
// followed by a check of what ends it makes a backtracking pattern go over the run once per
// position (quadratic on "111…1a", issue 33); test/redos.test.ts checks the patterns left.
const WORD = /[^\0\t\n\f\r ()<>[\]{}/%]*/y;
const trailerKeyword = () => /trailer[\0\t\n\f\r ]*<</g;
const isPdfSpace = (c: number) => c === 32 || c === 10 || c === 13 || c === 9 || c === 12 || c === 0;
const isDigit = (c: number) => c >= 48 && c <= 57;
// White-space, a delimiter ( ) < > [ ] { } / %, or the end (NaN).
const endsToken = (c: number) =>
  Number.isNaN(c) || isPdfSpace(c) || c === 40 || c === 41 || c === 60 || c === 62 || c === 91 || c === 93 || c === 123 || c === 125 || c === 47 || c === 37;

// The first "num gen obj" header whose number starts at or after from: each "obj" keyword,
// then back over white-space, digits, white-space, digits (each run read once).
function findHeader(s: string, from: number): { index: number; end: number; num: number } | null {
  for (let at = s.indexOf("obj", from); at >= 0; at = s.indexOf("obj", at + 1)) {
    if (!endsToken(s.charCodeAt(at + 3))) continue;
    let i = at;
    const back = (test: (c: number) => boolean) => {
      const start = i;
      while (i > 0 && test(s.charCodeAt(i - 1))) i--;
      return i < start;
    };
    if (!back(isPdfSpace) || !back(isDigit) || !back(isPdfSpace)) continue;
    const numEnd = i;
    if (!back(isDigit) || i < from) continue;
    return { index: i, end: at + 3, num: Number(s.slice(i, numEnd)) };
  }
  return null;
}

// The one-character escapes of a literal string (ISO 32000-1, 7.3.4.2).
const ESCAPES: Record<string, string> = { n: "\n", r: "\r", t: "\t", b: "\b", f: "\f", "(": "(", ")": ")", "\\": "\\" };

class Lexer {
  constructor(
    readonly s: string,
    public pos = 0,
  ) {}

  // Sticky regular expressions: native scanning, a tokenizer several times faster.
  private at(re: RegExp): RegExpExecArray | null {
    re.lastIndex = this.pos;
    const m = re.exec(this.s);
    if (m) this.pos = re.lastIndex;
    return m;
  }

  // White-space and comments, by a scan (as a pattern, runs of both nest quantifiers).
  skipWs() {
    const { s } = this;
    let i = this.pos;
    for (;;) {
      while (i < s.length && isPdfSpace(s.charCodeAt(i))) i++;
      if (s[i] !== "%") break;
      while (i < s.length && s[i] !== "\r" && s[i] !== "\n") i++;
    }
    this.pos = i;
  }

  word(): string {
    return this.at(WORD)?.[0] ?? "";
  }

  parse(depth = 0): PdfObj {
    if (depth > MAX_NESTING) throw new PdfTooCostly(`the PDF nests objects deeper than ${MAX_NESTING} levels`);
    this.skipWs();
    const { s } = this;
    if (this.pos >= s.length) throw DAMAGED;
    const c = s[this.pos];
    if (c === "<" && s[this.pos + 1] === "<") {
      this.pos += 2;
      const dict = new Map<string, PdfObj>();
      for (;;) {
        this.skipWs();
        if (s.startsWith(">>", this.pos)) {
          this.pos += 2;
          return dict;
        }
        const key = this.parse(depth + 1);
        if (!(key instanceof PdfName)) throw DAMAGED;
        dict.set(key.name, this.parse(depth + 1));
      }
    }
    if (c === "[") {
      this.pos++;
      const arr: PdfObj[] = [];
      for (;;) {
        this.skipWs();
        if (s[this.pos] === "]") {
          this.pos++;
          return arr;
        }
        arr.push(this.parse(depth + 1));
      }
    }
    if (c === "<") return this.hexString();
    if (c === "(") return this.literalString();
    if (c === "/") {
      this.pos++;
      return new PdfName(this.word().replace(/#([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16))));
    }
    if (c === ")" || c === ">" || c === "]" || c === "{" || c === "}") throw DAMAGED;
    const ref = this.ref();
    if (ref) return ref;
    const num = this.number();
    if (num !== null) return num;
    const w = this.word();
    if (w === "true") return true;
    if (w === "false") return false;
    if (w === "null") return null;
    if (!w) throw DAMAGED;
    return new PdfKeyword(w);
  }

  private run(from: number, test: (c: number) => boolean): number {
    let i = from;
    while (i < this.s.length && test(this.s.charCodeAt(i))) i++;
    return i;
  }

  // "num gen R" (7.3.10), or null with the position unchanged.
  private ref(): PdfRef | null {
    const { s, pos } = this;
    const numEnd = this.run(pos, isDigit);
    const genStart = this.run(numEnd, isPdfSpace);
    const genEnd = this.run(genStart, isDigit);
    const r = this.run(genEnd, isPdfSpace);
    if (numEnd === pos || genStart === numEnd || genEnd === genStart || r === genEnd || s[r] !== "R" || !endsToken(s.charCodeAt(r + 1))) return null;
    this.pos = r + 1;
    return new PdfRef(Number(s.slice(pos, numEnd)), Number(s.slice(genStart, genEnd)));
  }

  // An integer or real (7.3.3): sign, digits, a point, digits (at least one digit).
  private number(): number | null {
    const { s, pos } = this;
    const start = s[pos] === "+" || s[pos] === "-" ? pos + 1 : pos;
    const intEnd = this.run(start, isDigit);
    const fracEnd = s[intEnd] === "." ? this.run(intEnd + 1, isDigit) : intEnd;
    const digits = intEnd - start + Math.max(0, fracEnd - intEnd - 1);
    if (digits === 0 || !endsToken(s.charCodeAt(fracEnd))) return null;
    this.pos = fracEnd;
    return Number(s.slice(pos, fracEnd));
  }

  hexString(): PdfString {
    const end = this.s.indexOf(">", this.pos);
    if (end < 0) {
      this.pos = this.s.length;
      throw DAMAGED;
    }
    const text = this.s.slice(this.pos + 1, end);
    this.pos = end + 1;
    return new PdfString(hexDigits(text).toString("latin1"));
  }

  literalString(): PdfString {
    const { s } = this;
    const out: string[] = [];
    let nest = 1;
    this.pos++;
    const special = /[()\\]/g;
    while (this.pos < s.length) {
      special.lastIndex = this.pos;
      const m = special.exec(s);
      if (!m) break;
      out.push(s.slice(this.pos, m.index));
      const ch = m[0];
      this.pos = m.index + 1;
      if (ch === "(") nest++;
      else if (ch === ")" && --nest === 0) return new PdfString(out.join(""));
      if (ch !== "\\") {
        out.push(ch);
        continue;
      }
      const e = s[this.pos++];
      if (e in ESCAPES) out.push(ESCAPES[e]);
      else if (e >= "0" && e <= "7") {
        let oct = e;
        while (oct.length < 3 && s[this.pos] >= "0" && s[this.pos] <= "7") oct += s[this.pos++];
        out.push(String.fromCharCode(Number.parseInt(oct, 8) & 0xff));
      } else if (e === "\r") {
        if (s[this.pos] === "\n") this.pos++;
      } else if (e !== "\n" && e !== undefined) out.push(e);
    }
    this.pos = s.length;
    throw DAMAGED;
  }
}

// Every "num gen obj" in file order (a later definition, as in an incremental update,
// replaces an earlier one), found by scanning rather than through the cross-reference
// table, which is often broken in the wild.
class PdfObjects {
  private objects = new Map<number, { pos: number; obj: PdfObj }>();
  private trailers: { pos: number; dict: Map<string, PdfObj> }[] = [];
  private lexer: Lexer;
  // A backstop for the disjoint regions of parseAt: the characters parsed in all stay
  // within a multiple of the text there is.
  private parsed = 0;
  private compressedObjects = 0;
  private parseAllowance: number;

  constructor(
    private bytes: Uint8Array,
    private maxBytes: number,
  ) {
    this.lexer = new Lexer(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1"));
    this.parseAllowance = PARSE_WORK_FACTOR * bytes.length + 65_536;
    this.index();
  }

  // One object, read no further than end (the next object's start): regions parsed are
  // disjoint, so a damaged object never makes the reader go over the same text again.
  private parseAt(lexer: Lexer, pos: number, end = lexer.s.length): PdfObj {
    const sub = new Lexer(lexer.s.slice(pos, end));
    let obj: PdfObj = null;
    let error: unknown;
    try {
      obj = sub.parse();
    } catch (e) {
      error = e;
    }
    lexer.pos = pos + sub.pos;
    this.parsed += sub.pos + 1;
    if (this.parsed > this.parseAllowance) throw new PdfTooCostly("the PDF is too damaged to be read with bounded work");
    if (error) throw error;
    return obj;
  }

  private index() {
    const { s } = this.lexer;
    const objStms: { pos: number; stream: PdfStream }[] = [];
    let next = findHeader(s, 0);
    for (let count = 0; next; ) {
      const m = next;
      if (++count > MAX_OBJECTS) throw new PdfTooCostly(`the PDF has more than ${MAX_OBJECTS} objects`);
      const following = findHeader(s, m.end);
      // The scan goes on after the header, or after the object when it was read.
      next = following;
      let obj: PdfObj;
      try {
        obj = this.parseAt(this.lexer, m.end, following?.index ?? s.length);
        if (isDict(obj)) {
          const save = this.lexer.pos;
          this.lexer.skipWs();
          if (this.lexer.word() === "stream") obj = this.streamAt(obj);
          else this.lexer.pos = save;
        }
      } catch (e) {
        if (e instanceof PdfTooCostly) throw e;
        continue; // a damaged object: the scan goes on after its header
      }
      if (this.lexer.pos > m.end && following && following.index < this.lexer.pos) next = findHeader(s, this.lexer.pos);
      this.objects.set(m.num, { pos: m.index, obj });
      if (obj instanceof PdfStream) {
        const type = obj.dict.get("Type");
        if (type instanceof PdfName && type.name === "ObjStm") objStms.push({ pos: m.index, stream: obj });
        if (type instanceof PdfName && type.name === "XRef") this.trailers.push({ pos: m.index, dict: obj.dict });
      }
    }
    const trailer = trailerKeyword();
    const nextTrailer = trailerKeyword();
    for (let m = trailer.exec(s), count = 0; m; m = trailer.exec(s)) {
      if (++count > MAX_TRAILERS) throw new PdfTooCostly(`the PDF has more than ${MAX_TRAILERS} trailers`);
      nextTrailer.lastIndex = trailer.lastIndex;
      try {
        const dict = this.parseAt(this.lexer, m.index + "trailer".length, nextTrailer.exec(s)?.index ?? s.length);
        if (isDict(dict)) this.trailers.push({ pos: m.index, dict });
      } catch (e) {
        if (e instanceof PdfTooCostly) throw e;
      }
    }
    let budget = OBJECT_STREAM_BUDGET_FACTOR * this.maxBytes;
    for (const { pos, stream } of objStms) {
      const data = decodeStream(stream, budget, "an object stream of the PDF", (r) => this.fetch(r));
      budget -= data.length;
      this.parseAllowance += PARSE_WORK_FACTOR * data.length;
      this.readObjectStream(pos, stream, data);
    }
  }

  private streamAt(dict: Map<string, PdfObj>): PdfStream {
    const { s } = this.lexer;
    let start = this.lexer.pos;
    if (s[start] === "\r") start++;
    if (s[start] === "\n") start++;
    let end = -1;
    const length = dict.get("Length");
    if (typeof length === "number" && Number.isInteger(length) && length >= 0 && start + length <= s.length) {
      if (/^[\0\t\n\f\r ]*endstream/.test(s.slice(start + length, start + length + 64))) end = start + length;
    }
    // An indirect or wrong /Length: the data ends at the next "endstream".
    if (end < 0) end = s.indexOf("endstream", start);
    if (end < 0) end = s.length;
    this.lexer.pos = end;
    return new PdfStream(dict, this.bytes.subarray(start, end));
  }

  private readObjectStream(pos: number, stream: PdfStream, data: Buffer) {
    const n = stream.dict.get("N");
    const first = stream.dict.get("First");
    if (typeof n !== "number" || typeof first !== "number" || n < 0 || first < 0) return;
    const lexer = new Lexer(data.toString("latin1"));
    const entries: [number, number][] = [];
    try {
      for (let i = 0; i < n; i++) {
        if (++this.compressedObjects > MAX_OBJECTS) throw new PdfTooCostly(`the PDF has more than ${MAX_OBJECTS} objects`);
        const num = this.parseAt(lexer, lexer.pos, first);
        const offset = this.parseAt(lexer, lexer.pos, first);
        if (typeof num !== "number" || typeof offset !== "number" || offset < 0) break;
        entries.push([num, offset]);
      }
    } catch (e) {
      if (e instanceof PdfTooCostly) throw e;
    }
    // Objects of an object stream are consecutive: each is read up to the next offset.
    const offsets = [...new Set(entries.map(([, offset]) => offset))].sort((a, b) => a - b);
    const parsedAt = new Map<number, PdfObj>();
    offsets.forEach((offset, i) => {
      try {
        parsedAt.set(offset, this.parseAt(lexer, first + offset, i + 1 < offsets.length ? first + offsets[i + 1] : lexer.s.length));
      } catch (e) {
        if (e instanceof PdfTooCostly) throw e;
      }
    });
    for (const [num, offset] of entries) {
      if (!parsedAt.has(offset)) continue;
      const known = this.objects.get(num);
      if (!known || known.pos <= pos) this.objects.set(num, { pos, obj: parsedAt.get(offset) ?? null });
    }
  }

  fetch(o: PdfObj | undefined): PdfObj {
    for (let hops = 0; o instanceof PdfRef; hops++) {
      if (hops > 32) return null;
      o = this.objects.get(o.num)?.obj ?? null;
    }
    return o ?? null;
  }

  trailer(): Map<string, PdfObj> | null {
    const last = [...this.trailers].sort((a, b) => a.pos - b.pos).filter((t) => t.dict.has("Root"));
    return last.at(-1)?.dict ?? null;
  }

  catalog(): Map<string, PdfObj> | null {
    const root = this.fetch(this.trailer()?.get("Root"));
    if (isDict(root)) return root;
    // No usable trailer: the last catalog in the file.
    let found: { pos: number; obj: PdfObj } | undefined;
    for (const entry of this.objects.values()) {
      if (!isDict(entry.obj)) continue;
      const type = entry.obj.get("Type");
      if (type instanceof PdfName && type.name === "Catalog" && (!found || entry.pos > found.pos)) found = entry;
    }
    return found ? (found.obj as Map<string, PdfObj>) : null;
  }
}

// Each stage writes into a buffer that grows up to maxBytes and no further: a stage that
// would write more stops there and refuses the stream, so nesting cannot multiply the work
// and no stage ever holds more than the budget (docs/security.md, "Uploads and parsers").
function decodeStream(stream: PdfStream, maxBytes: number, what: string, fetch: (o: PdfObj | undefined) => PdfObj): Buffer {
  const filterObj = fetch(stream.dict.get("Filter") ?? stream.dict.get("F"));
  const paramsObj = fetch(stream.dict.get("DecodeParms") ?? stream.dict.get("DP"));
  const filters = (Array.isArray(filterObj) ? filterObj.map(fetch) : filterObj === null ? [] : [filterObj]) as PdfObj[];
  if (filters.length > MAX_FILTERS) throw new PdfUnreadable(`${what} chains more than ${MAX_FILTERS} filters`);
  let data = Buffer.from(stream.data.buffer, stream.data.byteOffset, stream.data.byteLength);
  if (data.length > maxBytes) throw new PdfUnreadable(`${what} exceeds ${maxBytes} bytes`);
  filters.forEach((f, i) => {
    if (!(f instanceof PdfName)) throw new PdfUnreadable(`${what} has a filter that is not a name`);
    const params = fetch(Array.isArray(paramsObj) ? paramsObj[i] : paramsObj);
    const predictor = isDict(params) ? fetch(params.get("Predictor")) : null;
    if (typeof predictor === "number" && predictor > 1) throw new PdfUnreadable(`${what} uses a predictor, which is not read`);
    const early = isDict(params) ? fetch(params.get("EarlyChange")) : null;
    data = decodeFilter(f.name, data, maxBytes, what, early === 0 ? 0 : 1);
  });
  return data;
}

// One filter stage; its output never exceeds maxBytes (the stage throws when it would).
export function decodeFilter(name: string, data: Buffer, maxBytes: number, what: string, earlyChange: 0 | 1 = 1): Buffer {
  switch (name) {
    case "FlateDecode":
    case "Fl":
      return inflate(data, maxBytes, what);
    case "ASCIIHexDecode":
    case "AHx":
      return asciiHex(data, maxBytes, what);
    case "ASCII85Decode":
    case "A85":
      return ascii85(data, maxBytes, what);
    case "LZWDecode":
    case "LZW":
      return lzw(data, maxBytes, what, earlyChange);
    case "RunLengthDecode":
    case "RL":
      return runLength(data, maxBytes, what);
    default:
      throw new PdfUnreadable(`${what} uses the ${name} filter, which is not read`);
  }
}

// A decoder's output: grows by doubling, never beyond max (a write past it throws).
class Output {
  buf: Buffer;
  len = 0;
  constructor(
    private readonly max: number,
    private readonly what: string,
    guess: number,
  ) {
    this.buf = Buffer.allocUnsafe(Math.max(1, Math.min(max, guess)));
  }
  // Room for n more bytes.
  reserve(n: number) {
    const need = this.len + n;
    if (need <= this.buf.length) return;
    if (need > this.max) throw new PdfUnreadable(`${this.what} expands beyond ${this.max} bytes`);
    const next = Buffer.allocUnsafe(Math.min(this.max, Math.max(need, this.buf.length * 2)));
    this.buf.copy(next, 0, 0, this.len);
    this.buf = next;
  }
  byte(b: number) {
    if (this.len === this.buf.length) this.reserve(1);
    this.buf[this.len++] = b;
  }
  result(): Buffer {
    return this.buf.subarray(0, this.len);
  }
}

function inflate(data: Buffer, maxBytes: number, what: string): Buffer {
  // The zlib header checks pdf.js makes; the Adler-32 trailer and a missing end are
  // tolerated as pdf.js tolerates them, hence raw inflate after the two header bytes.
  const [cmf, flg] = data;
  if (data.length < 2 || (cmf & 0x0f) !== 8 || ((cmf << 8) + flg) % 31 !== 0 || flg & 0x20) {
    throw new PdfUnreadable(`${what} is not a valid Flate stream`);
  }
  if (maxBytes < 1) throw new PdfUnreadable(`${what} expands beyond the bound`);
  try {
    // zlib stops writing at maxOutputLength (ERR_BUFFER_TOO_LARGE), chunk by chunk.
    return inflateRawSync(data.subarray(2), { maxOutputLength: maxBytes, finishFlush: constants.Z_SYNC_FLUSH });
  } catch (e) {
    if ((e as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") throw new PdfUnreadable(`${what} expands beyond ${maxBytes} bytes`);
    throw new PdfUnreadable(`${what} is not a valid Flate stream`);
  }
}

const hexValue = (c: number) => (c >= 48 && c <= 57 ? c - 48 : c >= 65 && c <= 70 ? c - 55 : c >= 97 && c <= 102 ? c - 87 : -1);

// ASCIIHexDecode (ISO 32000-1, 7.4.2): up to ">", anything but a hex digit skipped, an odd
// last digit read as if followed by 0.
function asciiHex(data: Buffer, maxBytes: number, what: string): Buffer {
  const out = new Output(maxBytes, what, (data.length >> 1) + 1);
  let high = -1;
  for (let i = 0; i < data.length && data[i] !== 0x3e; i++) {
    const v = hexValue(data[i]);
    if (v < 0) continue;
    if (high < 0) high = v;
    else {
      out.byte((high << 4) | v);
      high = -1;
    }
  }
  if (high >= 0) out.byte(high << 4);
  return out.result();
}

// Hex digits of a hex string to bytes (the same rules as ASCIIHexDecode); bounded by the text.
function hexDigits(text: string): Buffer {
  const hex = text.replace(/[^0-9a-fA-F]/g, "");
  return Buffer.from(hex.length % 2 ? `${hex}0` : hex, "hex");
}

// ASCII85Decode (7.4.3): white-space skipped, an optional "<~", "z" for four zeros, "~" ends.
function ascii85(data: Buffer, maxBytes: number, what: string): Buffer {
  const out = new Output(maxBytes, what, data.length);
  let i = 0;
  while (i < data.length && isPdfSpace(data[i])) i++;
  if (data[i] === 0x3c && data[i + 1] === 0x7e) i += 2;
  let n = 0;
  let k = 0;
  for (; i < data.length; i++) {
    const c = data[i];
    if (isPdfSpace(c)) continue;
    if (c === 0x7e) break;
    if (c === 0x7a && k === 0) {
      out.reserve(4);
      for (let z = 0; z < 4; z++) out.byte(0);
      continue;
    }
    if (c < 33 || c > 117) throw new PdfUnreadable(`${what} is not valid ASCII85`);
    n = n * 85 + (c - 33);
    if (++k === 5) {
      out.reserve(4);
      out.byte((n >>> 24) & 0xff);
      out.byte((n >>> 16) & 0xff);
      out.byte((n >>> 8) & 0xff);
      out.byte(n & 0xff);
      n = 0;
      k = 0;
    }
  }
  if (k > 1) {
    for (let pad = k; pad < 5; pad++) n = n * 85 + 84;
    const bytes = [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
    for (let b = 0; b < k - 1; b++) out.byte(bytes[b]);
  }
  return out.result();
}

// RunLengthDecode (7.4.5): a length byte 0-127 copies that many plus one bytes, 129-255
// repeats the next byte 257 minus it times, 128 ends.
function runLength(data: Buffer, maxBytes: number, what: string): Buffer {
  const out = new Output(maxBytes, what, data.length * 2);
  for (let i = 0; i < data.length; ) {
    const len = data[i++];
    if (len === 128) break;
    if (len < 128) {
      const end = Math.min(data.length, i + len + 1);
      out.reserve(end - i);
      while (i < end) out.byte(data[i++]);
    } else {
      if (i >= data.length) break;
      const b = data[i++];
      out.reserve(257 - len);
      for (let r = 0; r < 257 - len; r++) out.byte(b);
    }
  }
  return out.result();
}

// LZWDecode (7.4.4): 9- to 12-bit codes, 256 clears the table, 257 ends; EarlyChange 1 (the
// default) widens the codes one code early. Each code's string is written back to front
// from the table's prefix chain, into room reserved (within the budget) first.
function lzw(data: Buffer, maxBytes: number, what: string, earlyChange: 0 | 1): Buffer {
  const out = new Output(maxBytes, what, data.length * 4);
  const prefix = new Int32Array(4096);
  const suffix = new Uint8Array(4096);
  const length = new Int32Array(4096);
  const first = new Uint8Array(4096);
  for (let c = 0; c < 256; c++) {
    prefix[c] = -1;
    suffix[c] = c;
    length[c] = 1;
    first[c] = c;
  }
  const emit = (code: number) => {
    const n = length[code];
    out.reserve(n);
    let at = out.len + n - 1;
    for (let c = code; c >= 0; c = prefix[c]) out.buf[at--] = suffix[c];
    out.len += n;
  };
  let bits = 9;
  let next = 258;
  let prev = -1;
  let acc = 0;
  let have = 0;
  for (let i = 0; i < data.length || have >= bits; ) {
    while (have < bits && i < data.length) {
      acc = ((acc << 8) | data[i++]) & 0xffffff;
      have += 8;
    }
    if (have < bits) break;
    const code = (acc >>> (have - bits)) & ((1 << bits) - 1);
    have -= bits;
    if (code === 256) {
      bits = 9;
      next = 258;
      prev = -1;
      continue;
    }
    if (code === 257) break;
    if (prev < 0) {
      if (code > 255) throw new PdfUnreadable(`${what} is not a valid LZW stream`);
      emit(code);
      prev = code;
      continue;
    }
    if (code > next || (code === next && next >= 4096)) throw new PdfUnreadable(`${what} is not a valid LZW stream`);
    if (next < 4096) {
      prefix[next] = prev;
      suffix[next] = code === next ? first[prev] : first[code];
      length[next] = length[prev] + 1;
      first[next] = first[prev];
      next++;
      if (next + earlyChange >= 1 << bits && bits < 12) bits++;
    }
    emit(code);
    prev = code;
  }
  return out.result();
}

// A PDF text string: UTF-16 or UTF-8 with a byte-order mark, else (for the ASCII names
// that matter here) PDFDocEncoding read as latin1.
function textString(s: PdfString): string {
  const b = Buffer.from(s.bytes, "latin1");
  try {
    if (b[0] === 0xfe && b[1] === 0xff) return new TextDecoder("utf-16be", { fatal: true }).decode(b.subarray(0, b.length & ~1));
    if (b[0] === 0xff && b[1] === 0xfe) return new TextDecoder("utf-16le", { fatal: true }).decode(b.subarray(0, b.length & ~1));
    if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return new TextDecoder("utf-8", { fatal: true }).decode(b);
  } catch {}
  return s.bytes;
}

// The first of /UF, /F, /Unix, /Mac, /DOS present, as pdf.js picks a file specification's
// name and embedded stream.
function platformItem(dict: PdfObj, fetch: (o: PdfObj | undefined) => PdfObj): PdfObj {
  if (!isDict(dict)) return null;
  for (const key of ["UF", "F", "Unix", "Mac", "DOS"]) if (dict.has(key)) return fetch(dict.get(key));
  return null;
}

// The embedded files of the catalog's /Names /EmbeddedFiles tree, keyed by tree key (a
// later duplicate key wins), named as pdf.js names attachments (the file name without path).
function embeddedFiles(pdf: PdfObjects): Map<string, { name: string; spec: Map<string, PdfObj> }> {
  const fetch = (o: PdfObj | undefined) => pdf.fetch(o);
  const files = new Map<string, { name: string; spec: Map<string, PdfObj> }>();
  const names = fetch(pdf.catalog()?.get("Names"));
  if (!isDict(names)) return files;
  const queue: PdfObj[] = [names.get("EmbeddedFiles") ?? null];
  const seen = new Set<number>();
  for (let visited = 0; visited < queue.length; visited++) {
    if (visited > MAX_TREE_NODES) throw new PdfUnreadable(`the PDF's embedded file tree has more than ${MAX_TREE_NODES} nodes`);
    const raw = queue[visited] ?? null;
    if (raw instanceof PdfRef) {
      if (seen.has(raw.num)) throw new PdfUnreadable("the PDF's embedded file tree has a cycle");
      seen.add(raw.num);
    }
    const node = fetch(raw);
    if (!isDict(node)) continue;
    const kids = fetch(node.get("Kids"));
    if (node.has("Kids")) {
      if (Array.isArray(kids) && queue.length + kids.length > MAX_TREE_NODES + 1) {
        throw new PdfUnreadable(`the PDF's embedded file tree has more than ${MAX_TREE_NODES} nodes`);
      }
      if (Array.isArray(kids)) for (const kid of kids) queue.push(kid);
      continue;
    }
    const entries = fetch(node.get("Names"));
    if (!Array.isArray(entries)) continue;
    for (let i = 0; i + 1 < entries.length; i += 2) {
      const key = fetch(entries[i]);
      const spec = fetch(entries[i + 1]);
      if (!(key instanceof PdfString) || !isDict(spec)) continue;
      const item = platformItem(spec, fetch);
      const filename = item instanceof PdfString ? textString(item).replaceAll("\\\\", "\\").replaceAll("\\/", "/").replaceAll("\\", "/") : "";
      files.set(textString(key), { name: filename.slice(filename.lastIndexOf("/") + 1) || "unnamed", spec });
    }
  }
  return files;
}

// maxBytes bounds the decoded attachment (and, times a small factor, all object streams).
export async function findInvoiceAttachment(bytes: Uint8Array, maxBytes: number): Promise<PdfAttachment | null> {
  try {
    const pdf = new PdfObjects(bytes, maxBytes);
    if (pdf.trailer()?.has("Encrypt")) throw new PdfUnreadable("the PDF is encrypted (PDF/A-3, which Factur-X requires, forbids encryption)");
    const files = [...embeddedFiles(pdf).values()];
    for (const wanted of INVOICE_ATTACHMENT_NAMES) {
      for (const file of files.filter((f) => f.name === wanted)) {
        const stream = platformItem(pdf.fetch(file.spec.get("EF")), (o) => pdf.fetch(o));
        if (!(stream instanceof PdfStream)) continue;
        const content = decodeStream(stream, maxBytes, `the PDF attachment ${wanted}`, (o) => pdf.fetch(o));
        if (content.length) return { name: wanted, content };
      }
    }
    return null;
  } catch (e) {
    if (e instanceof PdfUnreadable) throw e;
    throw new PdfUnreadable(`the PDF could not be read: ${(e as Error).message?.slice(0, 200) ?? "unknown error"}`);
  }
}
