import { readFileSync } from "node:fs";
import { join } from "node:path";
import { deflateSync } from "node:zlib";
import fc from "fast-check";
import { PDFDocument } from "pdf-lib";
import { describe, expect, it } from "vitest";
import * as D from "@/lib/einvoice/decimal";
import { arithmeticWarnings, mapEinvoice } from "@/lib/einvoice/map-einvoice";
import { findInvoiceAttachment } from "@/lib/einvoice/pdf";
import { MAX_EINVOICE_BYTES, readEinvoice } from "@/lib/einvoice/read-einvoice";
import { depthOf, parseXml, XmlRefused } from "@/lib/einvoice/xml";
import { pdfWithEmbeddedStream } from "@/test/support/raw-pdf";

const FIX = join(__dirname, "../../test/fixtures/einvoice");

describe("decimal", () => {
  it("converts decimal text to minor units exactly", () => {
    expect(D.toMinor(D.parseDecimal("1656.25")!, 2)).toBe(165625n);
    expect(D.toMinor(D.parseDecimal("19.9")!, 2)).toBe(1990n);
    expect(D.toMinor(D.parseDecimal("100")!, 0)).toBe(100n);
    expect(D.toMinor(D.parseDecimal("100.00")!, 0)).toBe(100n);
    expect(D.toMinor(D.parseDecimal("0.001")!, 2)).toBeNull();
    expect(D.toMinor(D.parseDecimal("-5.5")!, 2)).toBe(-550n);
    expect(D.parseDecimal("1e3")).toBeNull();
    expect(D.parseDecimal("1,00")).toBeNull();
    expect(D.parseDecimal("")).toBeNull();
  });

  it("adds and compares at any scale without rounding", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }), fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 4 }), (units, scale, extra) => {
        const d = { units, scale };
        const wider = { units: units * 10n ** BigInt(extra), scale: scale + extra };
        expect(D.eq(d, wider)).toBe(true);
        expect(D.parseDecimal(D.format(d))).toEqual(d);
        expect(D.eq(D.add(d, D.neg(wider)), D.ZERO)).toBe(true);
      }),
    );
  });
});

describe("safe XML", () => {
  it("refuses DOCTYPE and ENTITY declarations before parsing", () => {
    expect(() => parseXml('<!DOCTYPE x [<!ENTITY a "b">]><x>&a;</x>')).toThrow(XmlRefused);
    expect(() => parseXml('<x><![CDATA[<!ENTITY a "b">]]></x>')).toThrow(XmlRefused);
  });

  it("decodes the predefined entities and character references as text, nothing else", async () => {
    const { decodeReferences } = await import("@/lib/einvoice/xml");
    expect(decodeReferences("Smith &amp; S&#246;hne &#x263A; &lt;b&gt; &foo;")).toBe("Smith & Söhne ☺ <b> &foo;");
  });

  it("bounds the depth", () => {
    expect(depthOf("<a><b/><c><d>x</d></c></a>")).toBe(3);
    expect(() => parseXml(`${"<a>".repeat(200)}${"</a>".repeat(200)}`)).toThrow(/deeper/);
  });

  it("keeps values as text and repeated elements as arrays", () => {
    const t = parseXml('<p:r xmlns:p="u"><p:n a="1">007.50</p:n><p:n>2</p:n></p:r>') as any;
    expect(t.r[0].n).toEqual([{ "#text": "007.50", "@_a": "1" }, "2"]);
  });
});

describe("readers", () => {
  it("exact arithmetic: the CII rounding-issue example (lines 720.81 + 0.01 - 720.81 - 0.01) raises no false BR-CO-10", async () => {
    const { invoice } = await readEinvoice(readFileSync(join(FIX, "en16931/cii/CII-BR-CO-10-RoundingIssue.xml")));
    expect(arithmeticWarnings(invoice)).toEqual([]);
    const doctored = { ...invoice, lines: invoice.lines.map((l, i) => (i === 1 ? { ...l, net: "0.02" } : l)) };
    expect(arithmeticWarnings(doctored)).toEqual([expect.objectContaining({ rule: "BR-CO-10", message: expect.stringContaining("0.01") })]);
  });

  it("reads UBL and CII of the same invoice to the same body", async () => {
    const ubl = await readEinvoice(readFileSync(join(FIX, "en16931/ubl/ubl-tc434-example1.xml")));
    const cii = await readEinvoice(readFileSync(join(FIX, "en16931/cii/CII_example1.xml")));
    const a = mapEinvoice(ubl.invoice, "creditor").body;
    const b = mapEinvoice(cii.invoice, "creditor").body;
    expect(a.amount_minor).toBe("25033");
    expect({ ...a, business_context: undefined }).toEqual({ ...b, business_context: undefined });
  });

  it("refuses other currencies naming BT-5 and nothing payable", async () => {
    const huf = await readEinvoice(readFileSync(join(FIX, "en16931/cii/huf_example_cii.xml")));
    expect(() => mapEinvoice(huf.invoice, "creditor")).toThrow(/BT-5/);
    const neg = await readEinvoice(readFileSync(join(FIX, "peppol/base-negative-inv-correction.xml")));
    expect(() => mapEinvoice(neg.invoice, "creditor")).toThrow(expect.objectContaining({ code: "nothing_payable" }));
  });

  it("sniffs: random bytes are 415, a PDF header goes to the PDF reader", async () => {
    await expect(readEinvoice(Buffer.from([1, 2, 3, 4]))).rejects.toMatchObject({ code: "unsupported_media_type" });
    await expect(readEinvoice(Buffer.from("%PDF-1.7\n%%EOF"))).rejects.toMatchObject({ code: "einvoice_unreadable" });
  });
});

describe("PDF attachments: bounded decoding", () => {
  const CII1 = readFileSync(join(FIX, "en16931/cii/CII_example1.xml"));
  const flate = (b: Uint8Array) => deflateSync(b);
  const read = (pdf: Uint8Array, max = MAX_EINVOICE_BYTES) => findInvoiceAttachment(pdf, max);

  it("reads Factur-X PDFs written by pdf-lib, with and without object streams", async () => {
    for (const useObjectStreams of [true, false]) {
      const doc = await PDFDocument.create();
      doc.addPage();
      await doc.attach(CII1, "notes.xml", { mimeType: "text/xml" });
      await doc.attach(CII1, "factur-x.xml", { mimeType: "text/xml" });
      const found = await read(await doc.save({ useObjectStreams }));
      expect(found?.name).toBe("factur-x.xml");
      expect(Buffer.from(found!.content).equals(CII1)).toBe(true);
    }
  });

  it("reads an attachment of exactly the bound and refuses one byte more, at every filter stage", async () => {
    const exact = Buffer.alloc(4096, 0x20);
    const over = Buffer.alloc(4097, 0x20);
    expect((await read(pdfWithEmbeddedStream({ streamDict: "/Filter /FlateDecode", data: flate(exact) }), 4096))?.content.length).toBe(4096);
    await expect(read(pdfWithEmbeddedStream({ streamDict: "/Filter /FlateDecode", data: flate(over) }), 4096)).rejects.toThrow(
      /factur-x\.xml expands beyond 4096 bytes/,
    );
    await expect(read(pdfWithEmbeddedStream({ streamDict: "/Filter [/FlateDecode /FlateDecode]", data: flate(flate(over)) }), 4096)).rejects.toThrow(
      /expands beyond 4096 bytes/,
    );
    await expect(read(pdfWithEmbeddedStream({ streamDict: "", data: over }), 4096)).rejects.toThrow(/exceeds 4096 bytes/);
  });

  it("refuses a Flate bomb and a nested Flate bomb without inflating them", async () => {
    const bomb = flate(Buffer.alloc(64 * 1024 * 1024));
    await expect(read(pdfWithEmbeddedStream({ streamDict: "/Filter /FlateDecode", data: bomb }))).rejects.toThrow(/expands beyond/);
    await expect(read(pdfWithEmbeddedStream({ streamDict: "/Filter [/FlateDecode /FlateDecode]", data: flate(bomb) }))).rejects.toThrow(/expands beyond/);
  });

  it("refuses an object stream bomb, filters it cannot bound, encryption", async () => {
    const objStm = Buffer.concat([
      Buffer.from("<< /Type /ObjStm /N 1 /First 5 /Filter /FlateDecode >>\nstream\n"),
      flate(Buffer.alloc(64 * 1024 * 1024)),
      Buffer.from("\nendstream"),
    ]);
    await expect(read(pdfWithEmbeddedStream({ streamDict: "", data: CII1, extraObjects: [objStm] }))).rejects.toThrow(/object stream.*expands beyond/);
    for (const filter of ["CCITTFaxDecode", "JBIG2Decode", "DCTDecode", "JPXDecode", "Crypt"]) {
      await expect(read(pdfWithEmbeddedStream({ streamDict: `/Filter /${filter}`, data: Buffer.alloc(64) }))).rejects.toThrow(
        new RegExp(`the ${filter} filter, which is not read`),
      );
    }
    const encrypted = Buffer.from(
      pdfWithEmbeddedStream({ streamDict: "", data: CII1 }).toString("latin1").replace("/Root 1 0 R", "/Root 1 0 R /Encrypt 9 0 R"),
      "latin1",
    );
    await expect(read(encrypted)).rejects.toThrow(/encrypted/);
  });

  it("skips a damaged object, and refuses a file of countless damaged objects", async () => {
    const damaged = pdfWithEmbeddedStream({ streamDict: "", data: CII1, extraObjects: ["(unterminated <</Type /Catalog"] });
    expect((await read(damaged))?.name).toBe("factur-x.xml");
    const many = Buffer.from(`%PDF-1.7\n${"1 0 obj (".repeat(200_000)}`);
    await expect(read(many)).rejects.toThrow(/more than 100000 objects/);
  });

  it("decodes ASCIIHex before Flate, and the same through readEinvoice", async () => {
    const pdf = pdfWithEmbeddedStream({ streamDict: "/Filter [/ASCIIHexDecode /FlateDecode]", data: Buffer.from(`${flate(CII1).toString("hex")}>`) });
    expect(Buffer.from((await read(pdf))!.content).equals(CII1)).toBe(true);
    expect((await readEinvoice(pdf)).source).toBe("pdf");
    const bomb = pdfWithEmbeddedStream({ streamDict: "/Filter /FlateDecode", data: flate(Buffer.alloc(MAX_EINVOICE_BYTES + 1)) });
    await expect(readEinvoice(bomb)).rejects.toMatchObject({ code: "einvoice_unreadable", message: expect.stringMatching(/expands beyond/) });
  });
});
