// Factur-X / ZUGFeRD / XRechnung-in-PDF: the embedded invoice XML, found with pdf.js
// (legacy build for Node; no worker thread, no canvas, no eval, no font loading).
export const INVOICE_ATTACHMENT_NAMES = ["factur-x.xml", "zugferd-invoice.xml", "ZUGFeRD-invoice.xml", "xrechnung.xml"] as const;

export type PdfAttachment = { name: string; content: Uint8Array };

export class PdfUnreadable extends Error {}

export async function findInvoiceAttachment(bytes: Uint8Array): Promise<PdfAttachment | null> {
  const pdfjs = await import("pdfjs-dist/legacy/build/pdf.mjs");
  let doc: Awaited<ReturnType<typeof pdfjs.getDocument>["promise"]> | undefined;
  const task = pdfjs.getDocument({
    data: new Uint8Array(bytes), // pdf.js takes ownership of (detaches) the buffer it gets
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    stopAtErrors: false,
    verbosity: 0,
  });
  try {
    doc = await task.promise;
    const attachments = ((await doc.getAttachments()) ?? {}) as Record<string, { filename?: string; rawFilename?: string; content?: Uint8Array }>;
    const found = Object.entries(attachments).map(([key, a]) => ({ name: a.filename || a.rawFilename || key, content: a.content }));
    for (const wanted of INVOICE_ATTACHMENT_NAMES) {
      const hit = found.find((a) => a.name === wanted && a.content?.length);
      if (hit) return { name: hit.name, content: hit.content! };
    }
    return null;
  } catch (e) {
    throw new PdfUnreadable(`the PDF could not be read: ${(e as Error).message?.slice(0, 200) ?? "unknown error"}`);
  } finally {
    await task.destroy().catch(() => undefined);
  }
}
