import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeFilter, findInvoiceAttachment } from "@/lib/einvoice/pdf";
import { encodeChain, encodeFilter, PDF_FILTERS, type PdfFilter } from "@/test/support/pdf-filters";
import { pdfWithEmbeddedStream } from "@/test/support/raw-pdf";

const MIB = 1024 * 1024;

// Every chain of one or two filters, and a few longer ones.
const CHAINS: PdfFilter[][] = [
  ...PDF_FILTERS.map((f) => [f]),
  ...PDF_FILTERS.flatMap((a) => PDF_FILTERS.map((b) => [a, b])),
  ["FlateDecode", "ASCII85Decode", "RunLengthDecode"],
  ["LZWDecode", "FlateDecode", "ASCII85Decode", "RunLengthDecode"],
  ["ASCIIHexDecode", "FlateDecode", "LZWDecode", "FlateDecode"],
];

describe("PDF filter decoders", () => {
  it("decodes the LZW example of ISO 32000-1, 7.4.4.2", () => {
    const encoded = Buffer.from([0x80, 0x0b, 0x60, 0x50, 0x22, 0x0c, 0x0c, 0x85, 0x01]);
    expect([...decodeFilter("LZWDecode", encoded, 100, "s")]).toEqual([45, 45, 45, 45, 45, 65, 45, 45, 45, 66]);
  });

  it("decodes ASCII85 with z, white-space, the <~ ~> brackets and a partial last group", () => {
    expect(decodeFilter("ASCII85Decode", Buffer.from('<~87cURD]i,"Ebo80~>'), 100, "s").toString()).toBe("Hello World!");
    expect([...decodeFilter("ASCII85Decode", Buffer.from("z \n z~>"), 100, "s")]).toEqual(Array(8).fill(0));
    expect(() => decodeFilter("ASCII85Decode", Buffer.from("abc{~>"), 100, "s")).toThrow(/not valid ASCII85/);
  });

  it("decodes ASCIIHex and RunLength by the standard's rules", () => {
    expect(decodeFilter("ASCIIHexDecode", Buffer.from("48 65\n6c6C6>ignored"), 100, "s").toString("latin1")).toBe("Hell`");
    expect([...decodeFilter("RunLengthDecode", Buffer.from([2, 1, 2, 3, 254, 9, 128, 7]), 100, "s")]).toEqual([1, 2, 3, 9, 9, 9]);
  });

  it("round-trips random data through every filter and chain", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 3000 }), fc.constantFrom(...CHAINS), (bytes, chain) => {
        const data = Buffer.from(bytes);
        let decoded = encodeChain(chain, data);
        for (const f of chain) decoded = decodeFilter(f, decoded, 64 * 1024, "s");
        expect(decoded.equals(data)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it("round-trips long repetitive data through LZW past a full table", () => {
    const data = Buffer.from("abcabcabd".repeat(20_000) + "x".repeat(70_000));
    expect(decodeFilter("LZWDecode", encodeFilter("LZWDecode", data), data.length, "s").equals(data)).toBe(true);
  });

  it("stops every filter at the budget: exactly the budget passes, one byte more is refused", () => {
    for (const f of PDF_FILTERS) {
      const exact = encodeFilter(f, Buffer.alloc(4096));
      expect(decodeFilter(f, exact, 4096, "s").length).toBe(4096);
      expect(() => decodeFilter(f, encodeFilter(f, Buffer.alloc(4097)), 4096, "s")).toThrow(/expands beyond 4096 bytes/);
    }
  });

  it("refuses a decompression bomb of every filter chain, in the attachment and in object streams, without growing memory", async () => {
    const payload = Buffer.alloc(2 * MIB);
    const before = process.memoryUsage();
    for (const chain of CHAINS) {
      const data = encodeChain(chain, payload);
      if (data.length > 256 * 1024) continue; // not a bomb: the raw data alone exceeds the budget
      const filter = `/Filter [${chain.map((f) => `/${f}`).join(" ")}]`;
      await expect(findInvoiceAttachment(pdfWithEmbeddedStream({ streamDict: filter, data }), 256 * 1024), chain.join(" ")).rejects.toThrow(/expands beyond/);
      const objStm = Buffer.concat([Buffer.from(`<< /Type /ObjStm /N 1 /First 5 ${filter} >>\nstream\n`), data, Buffer.from("\nendstream")]);
      await expect(
        findInvoiceAttachment(pdfWithEmbeddedStream({ streamDict: "", data: Buffer.from("<x/>"), extraObjects: [objStm] }), 256 * 1024),
        chain.join(" "),
      ).rejects.toThrow(/object stream.*expands beyond/);
    }
    // Each stage held at most the budget (1 MiB for object streams): far below the payloads.
    const after = process.memoryUsage();
    expect(after.arrayBuffers - before.arrayBuffers).toBeLessThan(64 * MIB);
  });

  it("refuses the issue's bomb: Flate then ASCII85 of 40 million z", async () => {
    const data = encodeFilter("FlateDecode", Buffer.alloc(40_000_000, "z"));
    const objStm = Buffer.concat([
      Buffer.from("<< /Type /ObjStm /N 1 /First 5 /Filter [/FlateDecode /ASCII85Decode] >>\nstream\n"),
      data,
      Buffer.from("\nendstream"),
    ]);
    await expect(findInvoiceAttachment(pdfWithEmbeddedStream({ streamDict: "", data: Buffer.from("<x/>"), extraObjects: [objStm] }), 10 * MIB)).rejects.toThrow(
      /expands beyond/,
    );
  });
});
