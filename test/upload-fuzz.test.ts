import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { ERROR_STATUS } from "@/lib/errors";
import { newOrg, type OrgFixture } from "./support/fixtures";
import { registerObligation } from "./support/obligations";
import { encodeChain, encodeFilter, PDF_FILTERS, type PdfFilter } from "./support/pdf-filters";
import { pdfWithEmbeddedStream } from "./support/raw-pdf";

// Hostile uploads through the real endpoints, one describe per parser: random mutations of
// real files (seeded, so a failure names a case that reproduces) and adversarial shapes (deep
// nesting, long tokens, repeated separators, huge declared lengths, decompression bombs of
// every PDF filter and chain). Each answer is a success or a 4xx in the contract's envelope,
// and what the parse cost, as the parse worker measured and logged it ("upload parsed" in the
// server's log), is within the configured budgets (UPLOAD_PARSE_TIMEOUT_MS,
// UPLOAD_PARSE_MEMORY_MB); a parse stopped at a budget says so in its refusal.
// docs/security.md, "Uploads and parsers".

const FIX = path.join(__dirname, "fixtures");
const MIB = 1024 * 1024;
const SEED = 20261128;

type Parse = {
  parse: string;
  bytes: number;
  outcome: string;
  worker: { ms: number; heap_bytes: number } | null;
  limits: { ms: number; heap_mb: number };
};
let logOffset = 0;
// The "upload parsed" lines the server logged since the last call.
function newParses(): Parse[] {
  const text = readFileSync(inject("logFile"), "utf8");
  const fresh = text.slice(logOffset);
  logOffset = text.length;
  return fresh
    .split("\n")
    .filter((l) => l.includes('"upload parsed"'))
    .map((l) => JSON.parse(l) as Parse);
}

type Answer = { status: number; body: any; text: string };
function expectEnvelope(label: string, r: Answer) {
  expect(r.status, `${label}: ${r.text.slice(0, 300)}`).toBeLessThan(500);
  if (r.status >= 400) {
    expect(Object.keys(r.body ?? {}), `${label}: ${r.text.slice(0, 300)}`).toEqual(["error"]);
    expect(Object.keys(r.body.error).sort(), label).toEqual(["code", "message"]);
    expect(ERROR_STATUS[r.body.error.code as keyof typeof ERROR_STATUS], `${label}: ${r.body.error.code}`).toBe(r.status);
  }
}

// The parse of this upload was logged, and its cost is within the budgets. The server's log
// reaches the file through a pipe, so its line may come a little after the response.
let unmatched: Parse[] = [];
async function expectBounded(label: string, kind: string, bytes: number) {
  let mine: Parse[] = [];
  for (let tries = 0; tries < 100 && !mine.length; tries++) {
    if (tries) await new Promise((r) => setTimeout(r, 50));
    unmatched = [...unmatched, ...newParses()].slice(-200);
    mine = unmatched.filter((p) => p.parse === kind && p.bytes === bytes);
  }
  unmatched = unmatched.filter((p) => !mine.includes(p));
  expect(mine.length, `${label}: no "upload parsed" line for ${bytes} bytes`).toBeGreaterThan(0);
  for (const p of mine) {
    if (p.worker) {
      // The request thread's timer enforces the limit: a parse that ends as it fires (late,
      // on a busy machine) may report a little more.
      expect(p.worker.ms, label).toBeLessThanOrEqual(p.limits.ms * 1.1 + 1000);
      // The request thread's memory watch allows the limit per busy worker (the test server
      // runs the default two), and a worker's committed heap is its high-water mark across
      // parses; plus the young generation and code.
      expect(p.worker.heap_bytes, label).toBeLessThanOrEqual((2 * p.limits.heap_mb + 64) * MIB);
    } else expect(p.outcome, `${label}: a parse without the worker's figures is one stopped at a budget`).not.toBe("ok");
  }
}

// Seeded mutations of a file: bytes flipped, cut, a slice repeated, adversarial text inserted.
const INSERTS = ["<", "<a", ">", "/", "//", "?", ":86:", ";", '"', "\n", "0".repeat(5000), "9".repeat(60_000), "<a>".repeat(200), "(", "<<", "[", "%"];
function mutations(base: Buffer, n: number, seed: number): Buffer[] {
  const op = fc.oneof(
    fc.record({ k: fc.constant("flip"), at: fc.nat(), v: fc.nat(255) }),
    fc.record({ k: fc.constant("cut"), at: fc.nat() }),
    fc.record({ k: fc.constant("repeat"), at: fc.nat(), len: fc.integer({ min: 1, max: 64 }), times: fc.integer({ min: 2, max: 2000 }) }),
    fc.record({ k: fc.constant("insert"), at: fc.nat(), s: fc.constantFrom(...INSERTS) }),
  );
  return fc.sample(fc.array(op, { minLength: 1, maxLength: 4 }), { numRuns: n, seed }).map((ops) => {
    let b = base;
    for (const o of ops) {
      const at = o.at % Math.max(1, b.length);
      if (o.k === "flip") {
        b = Buffer.from(b);
        b[at] = o.v;
      } else if (o.k === "cut") b = b.subarray(0, at);
      else if (o.k === "repeat") {
        const piece = b.subarray(at, at + o.len);
        if (piece.length) b = Buffer.concat([b.subarray(0, at), Buffer.alloc(piece.length * o.times, piece), b.subarray(at)]);
      } else b = Buffer.concat([b.subarray(0, at), Buffer.from(o.s), b.subarray(at)]);
    }
    return b.length > 9 * MIB ? b.subarray(0, 9 * MIB) : b;
  });
}

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = path.join(dir, n);
    return statSync(p).isDirectory() ? files(p) : /\.(xml|sta|txt|940|csv|pdf)$/i.test(n) && !/LICENSE|SOURCE/.test(n) ? [p] : [];
  });
}

function multipart(bytes: Uint8Array, fields: Record<string, string> = {}, name = "upload") {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  f.append("file", new Blob([new Uint8Array(bytes)]), name);
  return f;
}

let org: OrgFixture;
beforeAll(async () => {
  org = await newOrg("Hostile Uploads");
  newParses();
});

// A decompression bomb of one filter chain: the chain's encoding of a payload that decodes
// past the attachment budget (10 MiB), kept only when the upload itself stays small.
function bombs(): { label: string; pdf: Buffer }[] {
  const chains: PdfFilter[][] = [...PDF_FILTERS.map((f) => [f]), ...PDF_FILTERS.flatMap((a) => PDF_FILTERS.map((b) => [a, b]))];
  chains.push(["FlateDecode", "ASCII85Decode", "RunLengthDecode"], ["FlateDecode", "LZWDecode", "ASCII85Decode", "RunLengthDecode"]);
  const payload = Buffer.alloc(10 * MIB + 1);
  const out: { label: string; pdf: Buffer }[] = [];
  for (const chain of chains) {
    const data = encodeChain(chain, payload);
    if (data.length > 2 * MIB) continue; // not a bomb: ASCIIHex or RunLength without a compressing stage
    const filter = `/Filter [${chain.map((f) => `/${f}`).join(" ")}]`;
    out.push({ label: `attachment ${chain.join(" ")}`, pdf: pdfWithEmbeddedStream({ streamDict: filter, data }) });
  }
  // Object streams share 4 x 10 MiB: the issue's Flate + ASCII85 of 40 million "z", and Flate of RunLength runs.
  const objStm = (filter: string, data: Buffer) =>
    Buffer.concat([Buffer.from(`<< /Type /ObjStm /N 1 /First 5 /Filter ${filter} >>\nstream\n`), data, Buffer.from("\nendstream")]);
  const xml = Buffer.from("<x/>");
  out.push({
    label: "object stream FlateDecode ASCII85Decode of 40 million z",
    pdf: pdfWithEmbeddedStream({
      streamDict: "",
      data: xml,
      extraObjects: [objStm("[/FlateDecode /ASCII85Decode]", encodeFilter("FlateDecode", Buffer.alloc(40_000_000, "z")))],
    }),
  });
  const runs = Buffer.alloc(2 * 400_000);
  for (let i = 0; i < runs.length; i += 2) runs[i] = 129; // 128 zeros per pair: 51 MB
  out.push({
    label: "object stream FlateDecode RunLengthDecode",
    pdf: pdfWithEmbeddedStream({ streamDict: "", data: xml, extraObjects: [objStm("[/FlateDecode /RunLengthDecode]", encodeFilter("FlateDecode", runs))] }),
  });
  return out;
}

describe("hostile e-invoices: POST /obligation-imports (dry run)", () => {
  const send = async (label: string, bytes: Buffer) => {
    const r = await org.api.call("POST", "/obligation-imports", { form: multipart(bytes, { dry_run: "true" }, "invoice.xml") });
    expectEnvelope(label, r);
    await expectBounded(label, "einvoice", bytes.length);
    return r;
  };

  it("refuses a decompression bomb of every filter chain with 422, within the budgets", { timeout: 600_000 }, async () => {
    for (const { label, pdf } of bombs()) {
      const r = await send(label, pdf);
      expect(r.status, `${label}: ${r.text}`).toBe(422);
      expect(r.body.error.message, label).toMatch(/expands beyond|exceeds/);
    }
  });

  it("answers adversarial shapes in the envelope, within the budgets", { timeout: 600_000 }, async () => {
    const shapes: [string, Buffer][] = [
      ["deep nesting", Buffer.from(`<Invoice>${"<a>".repeat(100_000)}`)],
      ["unclosed tags", Buffer.from(`<Invoice>${"<a".repeat(120_000)}`)],
      ["a tag of a million attributes", Buffer.from(`<Invoice ${'a="1" '.repeat(1_000_000)}/>`)],
      ["long text", Buffer.from(`<Invoice>${"x&amp;".repeat(1_000_000)}</Invoice>`)],
      ["repeated comments", Buffer.from(`<Invoice>${"<!--".repeat(1_000_000)}`)],
      ["many elements", Buffer.from(`<Invoice>${"<a>1</a>".repeat(1_000_000)}</Invoice>`)],
      ["PDF number token", Buffer.from(`%PDF-1.7\n1 0 obj\n${"1".repeat(60_000)}a\nendobj\n`)],
      ["PDF long number token", Buffer.from(`%PDF-1.7\n1 0 obj\n${"1".repeat(8 * MIB)}a\nendobj\n`)],
      ["PDF nested arrays", Buffer.from(`%PDF-1.7\n1 0 obj\n${"[".repeat(1_000_000)}\nendobj\n`)],
      ["PDF countless objects", Buffer.from(`%PDF-1.7\n${"1 0 obj (".repeat(500_000)}`)],
      ["PDF huge declared lengths", pdfWithEmbeddedStream({ streamDict: "/Length 99999999999 /N 99999999 /First 99999999", data: Buffer.from("x") })],
      ["PDF comments", Buffer.from(`%PDF-1.7\n${"%".repeat(5 * MIB)}`)],
      ["PDF literal string", Buffer.from(`%PDF-1.7\n1 0 obj\n${"(".repeat(2 * MIB)}\nendobj\n`)],
    ];
    for (const [label, bytes] of shapes) await send(label, bytes);
  });

  it("answers random mutations of real invoices in the envelope, within the budgets", { timeout: 600_000 }, async () => {
    const bases = files(path.join(FIX, "einvoice")).filter((_, i) => i % 3 === 0);
    for (const [i, f] of bases.entries()) {
      for (const [k, m] of mutations(readFileSync(f), 4, SEED + i).entries()) await send(`${path.basename(f)} mutation ${k}`, m);
    }
  });
});

describe("hostile bank statements: POST /bank-statements", () => {
  const send = async (label: string, bytes: Buffer, fields: Record<string, string> = {}) => {
    const r = await org.api.call("POST", "/bank-statements", { form: multipart(bytes, fields, "statement") });
    expectEnvelope(label, r);
    // A file the pipeline refuses before parsing (no file) logs no parse.
    if (r.status !== 413) await expectBounded(label, "statement", bytes.length);
    return r;
  };
  const camt = (inner: string) =>
    Buffer.from(`<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><Stmt>${inner}</Stmt></BkToCstmrStmt></Document>`);
  const mt940 = (line86: string) =>
    Buffer.from(`:20:X\n:25:NL91ABNA0417164300\n:60F:C070903EUR0,00\n:61:0709070904C50,05NTRFNONREF\n:86:${line86}\n:62F:C070903EUR0,00\n-\n`);

  it("answers adversarial shapes of camt, MT940 and CSV in the envelope, within the budgets", { timeout: 600_000 }, async () => {
    const shapes: [string, Buffer, Record<string, string>?][] = [
      ["camt deep nesting", camt("<a>".repeat(100_000))],
      ["camt unclosed tags", camt("<a".repeat(1_000_000))],
      ["camt long amount", camt(`<Ntry><Amt Ccy="EUR">${"1".repeat(5 * MIB)}a</Amt></Ntry>`)],
      ["camt many entries", camt('<Ntry><Amt Ccy="EUR">1.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><BookgDt><Dt>2026-01-01</Dt></BookgDt></Ntry>'.repeat(30_000))],
      ["MT940 :86: slashes", mt940(`/EREF/a${"/".repeat(80_000)}b`)],
      ["MT940 :86: 8 MiB of slashes", mt940(`/EREF/a${"/".repeat(8 * MIB)}b`)],
      ["MT940 :86: question marks", mt940(`166${"?20".repeat(1_000_000)}`)],
      ["MT940 long amount", Buffer.from(`:20:X\n:25:X\n:60F:C070903EUR${"1".repeat(MIB)}x\n`)],
      ["MT940 countless tags", Buffer.from(":61:0709070904C50,05NTRFNONREF\n".repeat(200_000))],
      ["CSV long amount cells", Buffer.from(`Buchungstag;Betrag;Waehrung\n${`01.01.2026;1,${"0".repeat(40_000)}1;EUR\n`.repeat(100)}`), { format: "csv" }],
      ["CSV amounts of zeros", Buffer.from(`Buchungstag;Betrag;Waehrung\n${`01.01.2026;0.${"0".repeat(40_000)}1;EUR\n`.repeat(100)}`), { format: "csv" }],
      ["CSV without a header, 8 MiB", Buffer.from(`${"x;".repeat(4 * MIB)}\n`), { format: "csv" }],
      ["CSV repeated delimiters", Buffer.from(`${";".repeat(MIB)}\n${";".repeat(MIB)}\n`)],
      ["CSV unterminated quote", Buffer.from(`a;b\n"${"x".repeat(5 * MIB)}`), { format: "csv" }],
      ["CSV many columns header", Buffer.from(`${"date;amount;".repeat(200_000)}\n01.01.2026;1,00\n`), { format: "csv" }],
    ];
    for (const [label, bytes, fields] of shapes) await send(label, bytes, fields);
  });

  it("answers random mutations of real statements in the envelope, within the budgets", { timeout: 600_000 }, async () => {
    const bases = files(path.join(FIX, "bank")).filter((_, i) => i % 4 === 0);
    for (const [i, f] of bases.entries()) {
      for (const [k, m] of mutations(readFileSync(f), 3, SEED + 100 + i).entries()) await send(`${path.basename(f)} mutation ${k}`, m);
    }
  });
});

describe("hostile documents: POST /obligations/{id}/documents", () => {
  it("answers adversarial and mutated files in the envelope, within the budgets", { timeout: 600_000 }, async () => {
    const { obligation } = await registerObligation(org.api);
    const shapes: [string, Buffer][] = [
      ["unclosed markup", Buffer.from(`<a${"<a".repeat(2 * MIB)}`)],
      ["long line", Buffer.from("x".repeat(8 * MIB))],
      ["many lines", Buffer.from("a,b\n".repeat(2 * MIB))],
      ["many quotes", Buffer.from('"'.repeat(8 * MIB))],
      ["control bytes", Buffer.alloc(MIB, 1)],
      ["a PDF bomb", bombs()[0].pdf],
      ...mutations(readFileSync(path.join(FIX, "einvoice/pdf/chromium-qpdf-classic.pdf")), 6, SEED + 200).map((m, k): [string, Buffer] => [
        `pdf mutation ${k}`,
        m,
      ]),
    ];
    for (const [label, bytes] of shapes) {
      const r = await org.api.call("POST", `/obligations/${obligation.id}/documents`, { form: multipart(bytes, { expected_version: "999" }, "evidence") });
      expectEnvelope(label, r);
      await expectBounded(label, "document", bytes.length);
    }
  });
});
