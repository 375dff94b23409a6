import { createHash, randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { ZMutationResult } from "@/lib/schemas/obligations";
import { apiKeyWith, newOrg, type OrgFixture } from "./support/fixtures";
import { createInvoice, legacyBody, registerObligation } from "./support/obligations";

// Document upload (sniffing, bounds, sha256) and download (attachment headers).

const MiB = 1024 * 1024;
const sha256 = (b: Buffer | Uint8Array) => createHash("sha256").update(b).digest("hex");

const FILES = {
  pdf: Buffer.from("%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n"),
  png: Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64"),
  jpeg: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.from("JFIF\0"), Buffer.alloc(64, 1), Buffer.from([0xff, 0xd9])]),
  webp: Buffer.concat([Buffer.from("RIFF"), Buffer.from([0x24, 0, 0, 0]), Buffer.from("WEBPVP8 "), Buffer.alloc(28, 0)]),
  csv: Buffer.from("date,amount,reference\n2026-11-01,125000,INV-1\n2026-11-02,5000,INV-2\n"),
  txt: Buffer.from("Paid by bank transfer on 2 November.\nReference: INV-1\n"),
  xml: Buffer.from('<?xml version="1.0" encoding="UTF-8"?>\n<Invoice><ID>INV-1</ID><Amount currency="EUR">1250.00</Amount></Invoice>\n'),
};

const REFUSED: [string, Buffer][] = [
  ["page.html", Buffer.from("<!DOCTYPE html><html><body><p>hi</p></body></html>")],
  ["invoice.pdf", Buffer.from("<html><script>alert(document.cookie)</script></html>")], // HTML with a harmless name
  ["logo.svg", Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')],
  ["data.xml", Buffer.from('<?xml version="1.0"?><root><script>alert(1)</script></root>')],
  ["image.xml", Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>')],
  ["run.txt", Buffer.from("#!/bin/sh\nrm -rf /\n")],
  ["app.js", Buffer.from("fetch('/steal?c=' + document.cookie)\n")],
  ["setup.exe", Buffer.concat([Buffer.from("MZ"), Buffer.alloc(0x3a, 0), Buffer.from([0x40, 0, 0, 0]), Buffer.from("PE\0\0"), Buffer.alloc(256, 0)])],
  ["readme.txt", Buffer.concat([Buffer.from("MZ"), Buffer.alloc(0x3a, 0), Buffer.from([0x40, 0, 0, 0]), Buffer.from("PE\0\0"), Buffer.alloc(256, 0)])],
  ["tool", Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(120, 0)])],
  ["archive.zip", Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0, 8, 0]), Buffer.alloc(40, 0)])],
  ["noise.bin", Buffer.from(Array.from({ length: 512 }, (_, i) => (i * 7919) % 256))],
];

function form(fields: Record<string, string>, file?: { name: string; bytes: Buffer; type?: string }) {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  if (file) f.append("file", new Blob([new Uint8Array(file.bytes)], { type: file.type ?? "application/octet-stream" }), file.name);
  return f;
}

describe("documents", () => {
  let org: OrgFixture;
  let other: OrgFixture;
  beforeAll(async () => {
    org = await newOrg("Docs Ltd");
    other = await newOrg("Other Tenant");
  });

  const upload = (
    id: string,
    fields: Record<string, string>,
    file?: { name: string; bytes: Buffer; type?: string },
    o: OrgFixture = org,
    base = "obligations",
  ) => o.api.call("POST", `/${base}/${id}/documents`, { form: form(fields, file) });

  const download = async (path: string, o: OrgFixture = org) => {
    const res = await fetch(`${o.api.baseUrl}/api/v1${path}`, { headers: { authorization: `Bearer ${o.apiKey}` } });
    return { res, bytes: Buffer.from(await res.arrayBuffer()) };
  };

  it("stores a PDF: 201 mutation result with document_id, version + 1, sha256 recorded, downloadable as an attachment", async () => {
    const { invoice } = await registerObligation(org.api);
    const r = await upload(invoice.id, { expected_version: "1", kind: "invoice" }, { name: "INV-1.pdf", bytes: FILES.pdf, type: "text/html" });
    expect(r.status, r.text).toBe(201);
    const res = ZMutationResult.parse(r.body);
    expect(res.event_type).toBe("obligation.document_added");
    expect(res.document_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.invoice.version).toBe(2);
    const d = (await org.api.get(`/obligations/${invoice.id}`)).body;
    expect(d.documents).toEqual([
      {
        id: res.document_id,
        kind: "invoice",
        filename: "INV-1.pdf",
        content_type: "application/pdf", // sniffed, not the client's text/html
        size_bytes: FILES.pdf.length,
        sha256: sha256(FILES.pdf),
        uploaded_by: "issuer",
        created_at: expect.any(String),
      },
    ]);
    expect(d.audit_trail.at(-1)).toMatchObject({
      id: res.operation_id,
      event_type: "obligation.document_added",
      detail: { document_id: res.document_id, sha256: sha256(FILES.pdf) },
    });

    const { res: dl, bytes } = await download(`/obligations/${invoice.id}/documents/${res.document_id}`);
    expect(dl.status).toBe(200);
    expect(dl.headers.get("content-type")).toBe("application/octet-stream");
    expect(dl.headers.get("content-disposition")).toBe(`attachment; filename="INV-1.pdf"; filename*=UTF-8''INV-1.pdf`);
    expect(dl.headers.get("x-content-type-options")).toBe("nosniff");
    expect(sha256(bytes)).toBe(sha256(FILES.pdf));
  });

  it("accepts PDF, PNG, JPEG, WebP, CSV, plain text and XML with the sniffed content type; kind defaults to supporting", async () => {
    const { invoice } = await registerObligation(org.api);
    const expected: Record<keyof typeof FILES, string> = {
      pdf: "application/pdf",
      png: "image/png",
      jpeg: "image/jpeg",
      webp: "image/webp",
      csv: "text/csv",
      txt: "text/plain",
      xml: "application/xml",
    };
    let version = 1;
    for (const [name, bytes] of Object.entries(FILES) as [keyof typeof FILES, Buffer][]) {
      const r = await upload(invoice.id, { expected_version: String(version) }, { name: `evidence-${name}`, bytes });
      expect(r.status, `${name}: ${r.text}`).toBe(201);
      version++;
    }
    const d = (await org.api.get(`/obligations/${invoice.id}`)).body;
    expect(d.version).toBe(version);
    expect(Object.fromEntries(d.documents.map((x: any) => [x.filename.replace("evidence-", ""), x.content_type]))).toEqual(expected);
    expect(d.documents.every((x: any) => x.kind === "supporting")).toBe(true);
    for (const x of d.documents) {
      const { bytes } = await download(`/obligations/${invoice.id}/documents/${x.id}`);
      expect(sha256(bytes)).toBe(x.sha256);
      expect(bytes.length).toBe(x.size_bytes);
    }
  });

  it("refuses HTML, SVG, scripts, executables, archives and unknown binaries with 415, changing nothing", async () => {
    const { invoice } = await registerObligation(org.api);
    for (const [name, bytes] of REFUSED) {
      const r = await upload(invoice.id, { expected_version: "1" }, { name, bytes, type: "application/pdf" });
      expect(r.status, `${name}: ${r.text}`).toBe(415);
      expect(r.body.error.code).toBe("unsupported_media_type");
    }
    const d = (await org.api.get(`/obligations/${invoice.id}`)).body;
    expect(d.documents).toEqual([]);
    expect(d.version).toBe(1);
  });

  it("accepts exactly 10 MiB and refuses one byte more with 413", async () => {
    const { invoice } = await registerObligation(org.api);
    const big = Buffer.alloc(10 * MiB, 0x20);
    FILES.pdf.copy(big);
    const ok = await upload(invoice.id, { expected_version: "1" }, { name: "scan.pdf", bytes: big });
    expect(ok.status, ok.text).toBe(201);
    const { bytes } = await download(`/obligations/${invoice.id}/documents/${ok.body.document_id}`);
    expect(sha256(bytes)).toBe(sha256(big));
    const tooBig = Buffer.concat([big, Buffer.from(" ")]);
    const r = await upload(invoice.id, { expected_version: "2" }, { name: "scan2.pdf", bytes: tooBig });
    expect(r.status).toBe(413);
    expect(r.body.error.code).toBe("payload_too_large");
    const huge = await upload(invoice.id, { expected_version: "2" }, { name: "scan3.pdf", bytes: Buffer.concat([big, Buffer.alloc(MiB)]) });
    expect(huge.status).toBe(413);
    expect((await org.api.get(`/obligations/${invoice.id}`)).body.documents).toHaveLength(1);
  });

  it("validates the form: file and expected_version required, kind enumerated, no unknown fields; stale version 409", async () => {
    const { invoice } = await registerObligation(org.api);
    const file = { name: "a.txt", bytes: FILES.txt };
    const cases: [Record<string, string>, typeof file | undefined, string][] = [
      [{ expected_version: "1" }, undefined, "form.file"],
      [{}, file, "form.expected_version"],
      [{ expected_version: "one" }, file, "form.expected_version"],
      [{ expected_version: "0" }, file, "form.expected_version"],
      [{ expected_version: "1", kind: "selfie" }, file, "form.kind"],
      [{ expected_version: "1", note: "x" }, file, "form.note"],
      [{ expected_version: "1" }, { name: "empty.txt", bytes: Buffer.alloc(0) }, "form.file"],
    ];
    for (const [fields, f, path] of cases) {
      const r = await upload(invoice.id, fields, f);
      expect(r.status, `${path}: ${r.text}`).toBe(422);
      expect(r.body.error.code).toBe("validation_failed");
      expect(r.body.error.message).toContain(path);
    }
    const stale = await upload(invoice.id, { expected_version: "7" }, file);
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe("version_conflict");
    const json = await org.api.post(`/obligations/${invoice.id}/documents`, { expected_version: 1 });
    expect(json.status).toBe(400);
    expect(json.body.error.code).toBe("malformed_request");
    expect((await org.api.get(`/obligations/${invoice.id}`)).body.version).toBe(1);
  });

  it("quotes awkward file names safely in Content-Disposition and strips paths", async () => {
    const { invoice } = await registerObligation(org.api);
    const r = await upload(invoice.id, { expected_version: "1" }, { name: '../../etc/Rechnung "März";x.csv', bytes: FILES.csv });
    expect(r.status, r.text).toBe(201);
    const d = (await org.api.get(`/obligations/${invoice.id}`)).body;
    expect(d.documents[0].filename).toBe("Rechnung _März_;x.csv");
    const { res } = await download(`/obligations/${invoice.id}/documents/${r.body.document_id}`);
    const cd = res.headers.get("content-disposition")!;
    expect(cd).toBe(`attachment; filename="Rechnung _M_rz__x.csv"; filename*=UTF-8''Rechnung%20_M%C3%A4rz_%3Bx.csv`);
    expect(cd).not.toMatch(/[\r\n]/);
  });

  it("is 404 across tenants and obligations; download needs obligations:read, upload obligations:write", async () => {
    const { invoice } = await registerObligation(org.api);
    const { invoice: sibling } = await registerObligation(org.api);
    const r = await upload(invoice.id, { expected_version: "1" }, { name: "a.txt", bytes: FILES.txt });
    const docId = r.body.document_id;
    expect((await download(`/obligations/${invoice.id}/documents/${docId}`, other)).res.status).toBe(404);
    expect((await download(`/obligations/${sibling.id}/documents/${docId}`)).res.status).toBe(404);
    expect((await download(`/obligations/${invoice.id}/documents/${randomUUID()}`)).res.status).toBe(404);
    expect((await download(`/obligations/${invoice.id}/documents/nope`)).res.status).toBe(404);
    const foreignUpload = await upload(invoice.id, { expected_version: "2" }, { name: "a.txt", bytes: FILES.txt }, other);
    expect(foreignUpload.status).toBe(404);
    expect(foreignUpload.body.error.code).toBe("not_found");
    const writer = await apiKeyWith(org, ["obligations:write"]);
    const dl = await fetch(`${org.api.baseUrl}/api/v1/obligations/${invoice.id}/documents/${docId}`, { headers: { authorization: `Bearer ${writer.apiKey}` } });
    expect(dl.status).toBe(403);
    const reader = await apiKeyWith(org, ["obligations:read"]);
    const up = await reader.call("POST", `/obligations/${invoice.id}/documents`, {
      form: form({ expected_version: "2" }, { name: "a.txt", bytes: FILES.txt }),
    });
    expect(up.status).toBe(403);
    expect(up.body.error.code).toBe("insufficient_scope");
  });

  it("works on /invoices/{id}/documents for invoices only", async () => {
    const { invoice } = await createInvoice(org.api);
    const { invoice: contract } = await registerObligation(org.api, legacyBody({ obligation_type: "contractual" }));
    const r = await upload(invoice.id, { expected_version: "1", kind: "payment_evidence" }, { name: "remittance.csv", bytes: FILES.csv }, org, "invoices");
    expect(r.status, r.text).toBe(201);
    expect(r.body.invoice.version).toBe(2);
    const { res, bytes } = await download(`/invoices/${invoice.id}/documents/${r.body.document_id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(bytes.equals(FILES.csv)).toBe(true);
    const notInvoice = await upload(contract.id, { expected_version: "1" }, { name: "a.txt", bytes: FILES.txt }, org, "invoices");
    expect(notInvoice.status).toBe(404);
    const viaObligation = await upload(contract.id, { expected_version: "1" }, { name: "a.txt", bytes: FILES.txt });
    expect(viaObligation.status).toBe(201);
    expect((await download(`/invoices/${contract.id}/documents/${viaObligation.body.document_id}`)).res.status).toBe(404);
    expect((await download(`/invoices/${invoice.id}/documents/${r.body.document_id}`, other)).res.status).toBe(404);
  });
});
