import type { Tx } from "@/lib/db/client";
import type { Prisma } from "@/lib/generated/prisma/client";
import { AppError } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { loadObligation } from "@/lib/obligations/load";
import { documentStorage } from "@/lib/documents/storage";

export type GetDocumentDownloadInput = {
  organizationId: string;
  obligationId: string;
  documentId: string;
  obligationType?: string;
  visibleWhere?: Prisma.DocumentWhereInput; // e.g. what the recipient may see (others are 404)
};
export type DocumentDownload = { filename: string; bytes: Buffer; sha256: string };

// A document of an obligation with its bytes (404 when the obligation or the document is
// unknown, foreign, or not of this obligation).
export async function getDocumentDownload(tx: Tx, input: GetDocumentDownloadInput): Promise<DocumentDownload> {
  await loadObligation(tx, { organizationId: input.organizationId, obligationId: input.obligationId, obligationType: input.obligationType });
  if (!isUuid(input.documentId)) throw new AppError("not_found", "document not found");
  const doc = await tx.document.findFirst({
    where: {
      id: input.documentId,
      organizationId: input.organizationId,
      obligationId: input.obligationId,
      ...(input.visibleWhere ? { AND: [input.visibleWhere] } : {}),
    },
  });
  if (!doc) throw new AppError("not_found", "document not found");
  const bytes = await documentStorage().get(tx, { organizationId: input.organizationId, key: doc.storageKey });
  if (!bytes) throw new Error(`document ${doc.id} has no stored content`);
  return { filename: doc.filename, bytes, sha256: doc.sha256 };
}

// The download response: always an attachment of application/octet-stream, never
// rendered by the browser, with a safely quoted file name.
export function attachmentResponse(doc: { filename: string; bytes: Buffer; sha256?: string }): Response {
  return new Response(new Uint8Array(doc.bytes), {
    status: 200,
    headers: {
      "content-type": "application/octet-stream",
      "content-disposition": contentDisposition(doc.filename),
      "content-length": String(doc.bytes.length),
      "x-content-type-options": "nosniff",
      "content-security-policy": "default-src 'none'; sandbox",
      "cache-control": "private, no-store",
      ...(doc.sha256 ? { "x-content-sha256": doc.sha256 } : {}),
    },
  });
}

// RFC 6266: an ASCII fallback in a quoted-string plus the exact name in filename* (RFC 8187).
export function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\%;]/g, "_");
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
