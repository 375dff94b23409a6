import { AppError } from "@/lib/errors";
import { readCii } from "@/lib/einvoice/cii";
import { readUbl } from "@/lib/einvoice/ubl";
import type { Einvoice } from "@/lib/einvoice/model";
import { findInvoiceAttachment, INVOICE_ATTACHMENT_NAMES, PdfUnreadable } from "@/lib/einvoice/pdf";
import { decodeXml, declaresDtd, parseXml, XmlRefused, type XNode } from "@/lib/einvoice/xml";

export const MAX_EINVOICE_BYTES = 10 * 1024 * 1024;

export type ReadResult = { invoice: Einvoice; source: "xml" | "pdf" };

const unreadable = (message: string) => new AppError("einvoice_unreadable", message);
const unsupported = () =>
  new AppError("unsupported_media_type", "the file is neither a UBL 2.1 Invoice or CreditNote, a CII CrossIndustryInvoice, nor a PDF with an embedded invoice");

// Decides from the bytes (never the file name or Content-Type) what the file is and reads it.
export async function readEinvoice(bytes: Uint8Array): Promise<ReadResult> {
  if (bytes.length > MAX_EINVOICE_BYTES) throw new AppError("payload_too_large", `the file exceeds ${MAX_EINVOICE_BYTES} bytes`);
  if (isPdf(bytes)) {
    let found: Awaited<ReturnType<typeof findInvoiceAttachment>>;
    try {
      found = await findInvoiceAttachment(bytes, MAX_EINVOICE_BYTES);
    } catch (e) {
      if (e instanceof PdfUnreadable) throw unreadable(e.message);
      throw e;
    }
    if (!found) throw unreadable(`the PDF has no embedded invoice (an attachment named ${INVOICE_ATTACHMENT_NAMES.join(", ")})`);
    const invoice = readXml(found.content, true);
    if (!invoice) throw unreadable(`the PDF attachment ${found.name} is not a UBL or CII invoice`);
    return { invoice, source: "pdf" };
  }
  const invoice = readXml(bytes, false);
  if (!invoice) throw unsupported();
  return { invoice, source: "xml" };
}

function isPdf(bytes: Uint8Array): boolean {
  // The header may follow up to 1024 bytes of junk (as PDF readers accept), but markup
  // that merely mentions "%PDF-" near its start stays XML.
  const head = Buffer.from(bytes.subarray(0, 1024)).toString("latin1");
  const at = head.indexOf("%PDF-");
  return (
    at === 0 ||
    (at > 0 &&
      !head
        .replace(/^\uFEFF|^\xEF\xBB\xBF/, "")
        .trimStart()
        .startsWith("<"))
  );
}

// null when the bytes are not an XML invoice at all (415); AppError 422 when they are XML
// that cannot be read safely (DTD, malformed, too deep).
function readXml(bytes: Uint8Array, fromPdf: boolean): Einvoice | null {
  let text: string;
  try {
    text = decodeXml(bytes);
  } catch {
    if (fromPdf) throw unreadable("the embedded invoice is not valid UTF-8 XML");
    return null;
  }
  const trimmed = text.trimStart();
  if (!trimmed.startsWith("<")) return null;
  // A DTD is refused whatever the root: it is never given to a parser.
  if (declaresDtd(text)) throw unreadable("the XML declares a DOCTYPE or ENTITY; DTDs and entities are never resolved");
  let tree: XNode;
  try {
    tree = parseXml(text);
  } catch (e) {
    if (e instanceof XmlRefused) {
      if (!fromPdf && !/<([\w.-]+:)?(Invoice|CreditNote|CrossIndustryInvoice)[\s>]/.test(text)) return null;
      throw unreadable(e.message);
    }
    throw e;
  }
  const roots = Object.keys(tree).filter((k) => !k.startsWith("?") && !k.startsWith("#"));
  if (roots.length !== 1) return null;
  const name = roots[0];
  const root = (tree[name] as XNode[])[0];
  if (typeof root !== "object") return null;
  if (name === "Invoice" || name === "CreditNote") return readUbl(root, name);
  if (name === "CrossIndustryInvoice") return readCii(root);
  return null;
}
