import { createHash } from "node:crypto";
import type { Tx } from "@/lib/db";
import type { Principal } from "@/lib/auth/principal";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import type { UploadedFile } from "@/lib/http/body";
import type { TMutationResult } from "@/lib/schemas/obligations";
import { mutateObligation } from "@/lib/obligations/mutate-obligation";
import { documentStorage } from "@/lib/documents/storage";
import { sniffContentType } from "@/lib/documents/sniff";

export type DocumentKind = "invoice" | "supporting" | "payment_evidence" | "bank_observation";

export type UploadDocumentInput = {
  organizationId: string;
  obligationId: string;
  expectedVersion: number;
  principal: Principal;
  kind?: DocumentKind;
  files: Record<string, UploadedFile>;
  uploadedBy: "issuer" | "recipient";
  obligationType?: string;
  // Runs under the obligation's lock before anything is stored (the payer's bounds), with the file's size.
  guard?: (sizeBytes: number) => Promise<void>;
};

// Stores a document of an obligation (issuer or recipient upload): size bound (413),
// content sniffed (415), SHA-256 recorded, bytes in the storage backend, version + 1,
// event obligation.document_added; the result carries document_id.
// `files` is the parsed multipart file map: exactly one part named `file`.
export async function uploadDocument(tx: Tx, input: UploadDocumentInput): Promise<TMutationResult> {
  const extra = Object.keys(input.files).filter((k) => k !== "file");
  if (extra.length) throw new AppError("validation_failed", extra.map((k) => `form.${k}: unknown file field`).join("; "));
  const file = input.files.file;
  if (!file) throw new AppError("validation_failed", "form.file: a file is required");
  if (file.bytes.length > env().MAX_UPLOAD_BYTES) throw new AppError("payload_too_large", `the file exceeds ${env().MAX_UPLOAD_BYTES} bytes`);
  if (file.bytes.length === 0) throw new AppError("validation_failed", "form.file: the file is empty");
  const filename = safeFilename(file.name);
  const contentType = await sniffContentType(file.bytes, filename);
  const sha256 = createHash("sha256").update(file.bytes).digest("hex");
  const documentId = newId();
  const kind = input.kind ?? "supporting";

  return mutateObligation(tx, {
    organizationId: input.organizationId,
    obligationId: input.obligationId,
    expectedVersion: input.expectedVersion,
    principal: input.principal,
    obligationType: input.obligationType,
    eventType: "obligation.document_added",
    documentId,
    apply: async (o) => {
      await input.guard?.(file.bytes.length);
      const storageKey = `${o.organizationId}/${o.id}/${documentId}`;
      await documentStorage().put(tx, { organizationId: o.organizationId, key: storageKey, content: file.bytes });
      await tx.document.create({
        data: {
          id: documentId,
          organizationId: o.organizationId,
          obligationId: o.id,
          kind,
          filename,
          contentType,
          sizeBytes: file.bytes.length,
          sha256,
          storageKey,
          uploadedBy: input.uploadedBy,
        },
      });
    },
    detail: { document_id: documentId, kind, filename, content_type: contentType, size_bytes: file.bytes.length, sha256, uploaded_by: input.uploadedBy },
  });
}

// The stored name: the last path segment, without control or path characters, at most
// 200 characters; "document" when nothing is left.
export function safeFilename(name: string): string {
  const base = (name.split(/[\\/]/).pop() ?? "")
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what a file name must not keep
    .replace(/[\u0000-\u001f\u007f"<>|:*?]/g, "_")
    .trim()
    .replace(/^\.+/, "");
  return (base || "document").slice(-200);
}
