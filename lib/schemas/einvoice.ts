import { z } from "zod";
import { ZMutationResult, ZRegisterObligation } from "@/lib/schemas/obligations";

// POST /obligation-imports: an e-invoice file becomes an obligation.

export const ZImportForm = z.strictObject({
  organization_role: z
    .enum(["creditor", "debtor"])
    .optional()
    .meta({ description: "`creditor` (default): this organization is the seller; `debtor`: this organization is the buyer" }),
  dry_run: z
    .enum(["true", "false"])
    .optional()
    .transform((v) => v === "true")
    .meta({ description: "`true`: read and map the file, store nothing, answer 200 with the `request` that would be registered" }),
});
export type TImportForm = z.output<typeof ZImportForm>;

export const ZEinvoiceWarning = z
  .strictObject({
    rule: z.string().meta({ description: "The rule or business term: BR-CO-10, BR-CO-13, BR-CO-15, BR-CO-16, BT-9 or instalments" }),
    message: z.string(),
  })
  .meta({ id: "EinvoiceWarning", title: "EinvoiceWarning" });
export type TEinvoiceWarning = z.infer<typeof ZEinvoiceWarning>;

export const ZImportRecord = z
  .strictObject({
    id: z.string().meta({ description: 'The import\'s id; "" for a dry run' }),
    format: z.enum(["ubl", "cii"]),
    document_type: z.enum(["invoice", "credit_note"]),
    profile: z.string().meta({ description: "BT-24 specification identifier (UBL CustomizationID, CII GuidelineSpecifiedDocumentContextParameter)" }),
    source: z.enum(["xml", "pdf"]).meta({ description: "`pdf` when the invoice was embedded in a PDF (Factur-X / ZUGFeRD)" }),
    sha256: z.string().meta({ description: "SHA-256 of the uploaded file, hex" }),
  })
  .meta({ id: "ObligationImport", title: "ObligationImport" });

export const ZImportResult = z
  .strictObject({
    import: ZImportRecord,
    result: ZMutationResult.optional().meta({
      description: "The registration's mutation result as POST /obligations returns it, with document_id: the stored original file (absent on a dry run)",
    }),
    request: ZRegisterObligation.optional().meta({ description: "Dry run only: the register-obligation body that would be sent" }),
    warnings: z.array(ZEinvoiceWarning),
  })
  .meta({ id: "ObligationImportResult", title: "ObligationImportResult" });
export type TImportResult = z.infer<typeof ZImportResult>;
