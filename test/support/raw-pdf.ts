// A minimal PDF written byte by byte (pdf-lib would compress an attachment itself), with
// one embedded file whose stream dictionary and data the caller chooses: for hostile
// streams (compression bombs, odd filters) that a PDF library would not write.
export function pdfWithEmbeddedStream(opts: { name?: string; streamDict: string; data: Uint8Array; extraObjects?: (string | Buffer)[] }): Buffer {
  const name = opts.name ?? "factur-x.xml";
  const objects: (string | Buffer)[] = [
    `<< /Type /Catalog /Pages 2 0 R /Names << /EmbeddedFiles << /Names [(${name}) 4 0 R] >> >> >>`,
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>",
    `<< /Type /Filespec /F (${name}) /UF (${name}) /AFRelationship /Data /EF << /F 5 0 R /UF 5 0 R >> >>`,
    Buffer.concat([
      Buffer.from(`<< /Type /EmbeddedFile /Subtype /text#2Fxml ${opts.streamDict} /Length ${opts.data.length} >>\nstream\n`),
      opts.data,
      Buffer.from("\nendstream"),
    ]),
    ...(opts.extraObjects ?? []),
  ];
  const parts: Buffer[] = [Buffer.from("%PDF-1.7\n%\xE2\xE3\xCF\xD3\n", "latin1")];
  let offset = parts[0].length;
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(offset);
    const b = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), Buffer.from(o), Buffer.from("\nendobj\n")]);
    parts.push(b);
    offset += b.length;
  });
  const xref = [`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`, ...offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`)].join("");
  parts.push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${offset}\n%%EOF\n`));
  return Buffer.concat(parts);
}
