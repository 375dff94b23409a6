import { handle } from "@/lib/http/handle";
import { importObligationOp } from "@/lib/operations/einvoice";
import { importEinvoice } from "@/lib/einvoice/import-einvoice";
import { prepareEinvoiceImport } from "@/lib/einvoice/prepare-einvoice-import";
import type { ReadResult } from "@/lib/einvoice/read-einvoice";
import { notServed } from "@/lib/http/not-served";

// POST /obligation-imports – an e-invoice file (UBL, CII, Factur-X PDF) becomes an obligation
// (the file is read in a parse worker before the transaction opens)
export const POST = handle(
  importObligationOp,
  async ({ tx, principal, body, files, prepared }) => ({
    status: body.dry_run ? 200 : 201,
    body: await importEinvoice(tx, {
      organizationId: principal.organizationId,
      principal,
      files,
      organization_role: body.organization_role,
      dry_run: body.dry_run,
      parsed: prepared as ReadResult,
    }),
  }),
  { beforeTransaction: (_body, { files }) => prepareEinvoiceImport(files) },
);

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { GET, HEAD, PUT, PATCH, DELETE } = notServed("POST");
