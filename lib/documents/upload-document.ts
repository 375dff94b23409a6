import type { Tx } from "@/lib/db/client";
import type { Principal } from "@/lib/auth/principal";
import { newId } from "@/lib/ids";
import type { UploadedFile } from "@/lib/http/body";
import type { TMutationResult } from "@/lib/schemas/obligations";
import { mutateObligation } from "@/lib/obligations/mutate-obligation";
import { documentStorage } from "@/lib/documents/storage";
import type { AllowedType } from "@/lib/documents/sniff";
import { prepareDocumentUpload } from "@/lib/documents/prepare-document-upload";
import { safeFilename } from "@/lib/documents/safe-filename";

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
  // the content type prepareDocumentUpload sniffed before the transaction (sniffed here otherwise)
  contentType?: AllowedType;
};

// Stores a document of an obligation (issuer or recipient upload): size bound (413),
// content sniffed (415), SHA-256 recorded, bytes in the storage backend, version + 1,
// event obligation.document_added; the result carries document_id.
// `files` is the parsed multipart file map: exactly one part named `file`.
export async function uploadDocument(tx: Tx, input: UploadDocumentInput): Promise<TMutationResult> {
  const contentType = input.contentType ?? (await prepareDocumentUpload(input.files));
  const file = input.files.file;
  const filename = safeFilename(file.name);
  const sha256 = file.sha256;
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
