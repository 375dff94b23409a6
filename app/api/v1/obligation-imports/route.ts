import { handle } from "@/lib/http/handle";
import { importObligationOp } from "@/lib/operations/einvoice";
import { importEinvoice } from "@/lib/einvoice/import-einvoice";
import { notServed } from "@/lib/http/not-served";

// POST /obligation-imports – an e-invoice file (UBL, CII, Factur-X PDF) becomes an obligation
export const POST = handle(importObligationOp, async ({ tx, principal, body, files }) => ({
  status: body.dry_run ? 200 : 201,
  body: await importEinvoice(tx, {
    organizationId: principal.organizationId,
    principal,
    files,
    organization_role: body.organization_role,
    dry_run: body.dry_run,
  }),
}));

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { GET, HEAD, PUT, PATCH, DELETE } = notServed("POST");
