import type { Tx } from "@/lib/db/client";
import { sql as raw } from "kysely";
import { query } from "@/lib/db/query";
import type { Principal } from "@/lib/auth/principal";
import { AppError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import type { UploadedFile } from "@/lib/http/body";
import { DEFAULT_KIND } from "@/lib/schemas/contexts";
import type { TImportResult } from "@/lib/schemas/einvoice";
import type { TRegisterObligation } from "@/lib/schemas/obligations";
import { registerObligation } from "@/lib/obligations/register-obligation";
import { documentStorage } from "@/lib/documents/storage";
import { safeFilename } from "@/lib/documents/safe-filename";
import type { ReadResult } from "@/lib/einvoice/read-einvoice";
import { prepareEinvoiceImport } from "@/lib/einvoice/prepare-einvoice-import";
import { sellerWarning } from "@/lib/einvoice/seller-warning";
import { mapEinvoice, sellerIdentifier, type ContextRef, type ImportRole } from "@/lib/einvoice/map-einvoice";

export type ImportEinvoiceInput = {
  organizationId: string;
  principal: Principal;
  files: Record<string, UploadedFile>;
  organization_role?: ImportRole;
  dry_run?: boolean;
  // the file as prepareEinvoiceImport read it before the transaction (read here otherwise)
  parsed?: ReadResult;
};

// POST /obligation-imports: reads the e-invoice (UBL, CII or a PDF embedding one), maps it
// by business term, refuses a second import of the same seller + invoice number (409),
// finds or creates the order/contract/project contexts, registers the obligation through
// registerObligation and stores the original file as its `invoice` document — all in the
// caller's transaction. A dry run reads, maps and checks the duplicate, and stores nothing.
export async function importEinvoice(tx: Tx, input: ImportEinvoiceInput): Promise<TImportResult> {
  const { organizationId } = input;
  const { invoice, source } = input.parsed ?? (await prepareEinvoiceImport(input.files));
  const file = input.files.file;
  const mapped = mapEinvoice(invoice, input.organization_role ?? "creditor");
  const sha256 = file.sha256;
  const sellerKey = sellerIdentifier(invoice.seller);
  const record = { format: invoice.format, document_type: invoice.documentType, profile: invoice.profile, source, sha256 };

  // Two concurrent imports of one invoice: the second waits here, then sees the first.
  const lockKey = `einvoice:${organizationId}:${mapped.body.external_reference.id}`;
  await query(tx).selectNoFrom(raw<string>`pg_advisory_xact_lock(hashtext(${lockKey}))::text`.as("locked")).execute();
  const existing = await tx.obligation.findFirst({
    where: { organizationId, externalNamespace: "einvoice", externalId: mapped.body.external_reference.id },
    select: { id: true, reference: true },
  });
  if (existing) {
    throw new AppError(
      "duplicate",
      `invoice ${invoice.number} of seller ${sellerKey} is already registered as obligation ${existing.id} (${existing.reference})`,
    );
  }

  if ((input.organization_role ?? "creditor") === "creditor") {
    const warning = await sellerWarning(tx, { organizationId, invoice });
    if (warning) mapped.warnings.push(warning);
  }
  const contextIds = await resolveContexts(tx, organizationId, mapped.contexts, input.dry_run === true);
  const body: TRegisterObligation = { ...mapped.body, ...(contextIds.length ? { context_ids: contextIds } : {}) };
  if (input.dry_run) return { import: { id: "", ...record }, request: body, warnings: mapped.warnings };

  const result = await registerObligation(tx, { organizationId, principal: input.principal, body });
  const obligationId = result.obligation?.id ?? result.invoice.id;
  const documentId = newId();
  const storageKey = `${organizationId}/${obligationId}/${documentId}`;
  await documentStorage().put(tx, { organizationId, key: storageKey, content: file.bytes });
  await tx.document.create({
    data: {
      id: documentId,
      organizationId,
      obligationId,
      kind: "invoice",
      filename: safeFilename(file.name || (source === "pdf" ? "invoice.pdf" : "invoice.xml")),
      contentType: source === "pdf" ? "application/pdf" : "application/xml",
      sizeBytes: file.bytes.length,
      sha256,
      storageKey,
      uploadedBy: "issuer",
    },
  });
  const importId = newId();
  await tx.obligationImport.create({
    data: {
      id: importId,
      organizationId,
      obligationId,
      documentId,
      format: record.format,
      documentType: record.document_type,
      profile: record.profile.slice(0, 500),
      source,
      sha256,
      sellerKey: sellerKey.slice(0, 200),
      invoiceNumber: invoice.number,
    },
  });
  // The original file's document (document_id), as a document upload's result names it.
  return { import: { id: importId, ...record }, result: { ...result, document_id: documentId }, warnings: mapped.warnings };
}

// Each referenced order (BT-13), contract (BT-12) or project (BT-11): the organization's
// context of that type and reference, else a new one (not on a dry run).
async function resolveContexts(tx: Tx, organizationId: string, refs: ContextRef[], dryRun: boolean): Promise<string[]> {
  const ids: string[] = [];
  for (const ref of refs) {
    const found = await tx.businessContext.findFirst({
      where: { organizationId, type: ref.type, reference: ref.reference },
      orderBy: { createdAt: "asc" },
      select: { id: true },
    });
    if (found) {
      ids.push(found.id);
      continue;
    }
    if (dryRun) continue;
    const id = newId();
    await tx.businessContext.create({
      data: {
        id,
        organizationId,
        type: ref.type,
        kind: DEFAULT_KIND[ref.type],
        name: `${ref.typeLabel} ${ref.reference}`.slice(0, 200),
        reference: ref.reference,
        typeLabel: ref.typeLabel,
      },
    });
    ids.push(id);
  }
  return [...new Set(ids)];
}
