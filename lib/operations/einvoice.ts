import { defineOperation } from "@/lib/http/operation";
import { ZImportForm, ZImportResult } from "@/lib/schemas/einvoice";
import { exampleMutationResult } from "@/lib/operations/obligation-examples";

const DRY_RUN_EXAMPLE = {
  import: {
    id: "",
    format: "ubl",
    document_type: "invoice",
    profile: "urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0",
    source: "xml",
    sha256: "2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae",
  },
  request: {
    obligation_type: "invoice",
    organization_role: "creditor",
    external_reference: { namespace: "einvoice", id: "99887766:Snippet1" },
    creditor: { name: "SupplierOfficialName Ltd" },
    debtor: { name: "Buyer Official Name", email: "lj@buyer.se" },
    amount_minor: "165625",
    currency: "EUR",
    deadline: "2017-12-01",
    business_context: { invoice_number: "Snippet1", description: "Please note our new phone number 33 44 55 66" },
    payment_terms: [
      {
        sequence: 1,
        label: "First half",
        amount_type: "fixed",
        fixed_amount_minor: "100000",
        trigger_type: "immediately",
        due_rule: "specific_date",
        due_date: "2018-01-15",
      },
      {
        sequence: 2,
        label: "Second half",
        amount_type: "fixed",
        fixed_amount_minor: "65625",
        trigger_type: "immediately",
        due_rule: "specific_date",
        due_date: "2018-02-15",
      },
    ],
  },
  warnings: [],
};

export const importObligationOp = defineOperation({
  operationId: "importObligation",
  method: "POST",
  path: "/obligation-imports",
  summary: "Import an e-invoice (UBL, CII, XRechnung, Factur-X / ZUGFeRD PDF) as an obligation",
  description: [
    "multipart/form-data with one `file`, optional `organization_role` (`creditor`, the default: this organization is the seller; `debtor`: this organization is the buyer) and optional `dry_run` (`true`/`false`).",
    "Reads UBL 2.1 `Invoice` and `CreditNote` (Peppol BIS Billing 3.0, XRechnung, EN 16931), UN/CEFACT CII D16B `CrossIndustryInvoice` (XRechnung, Factur-X / ZUGFeRD 2.x, every profile) and PDFs embedding one of them as `factur-x.xml`, `zugferd-invoice.xml`, `ZUGFeRD-invoice.xml` or `xrechnung.xml`. The kind of file is decided from its bytes, never from its name or Content-Type.",
    'Mapping by EN 16931 business term: BT-1 → `business_context.invoice_number`; BT-22 (first note), else the first line\'s item name BT-153 → `business_context.description`; BT-115 → `amount_minor` in minor units of BT-5 (`currency`); BT-9 → `deadline` (without BT-9: the issue date BT-2 and a warning); seller BT-27 (email BT-43, else electronic address BT-34 with scheme `EM`) → `creditor`; buyer BT-44 (email BT-58, else BT-49 with scheme `EM`) → `debtor`; `external_reference` `{ namespace: "einvoice", id: <seller identifier BT-29, BT-30 or BT-31, else the seller name>:<BT-1> }`. Purchase order BT-13, contract BT-12 and project BT-11 become business contexts of type `order`, `external_object` (type_label `Contract`) and `project` (an existing one with the same type and reference is reused) linked to the obligation. Instalments with amounts and dates become fixed payment terms when they add up to BT-115, else a warning. The original file is stored as a document of kind `invoice`.',
    "A credit note registers the credit with the roles reversed (the seller owes the buyer); its preceding invoice BT-25 is kept in the description.",
    '201 with `import`, `result` (exactly the mutation result of POST /obligations, event `obligation.registered`) and `warnings` (`{ rule, message }`: arithmetic rules BR-CO-10, BR-CO-13, BR-CO-15, BR-CO-16 checked exactly; `BT-9`; `instalments`). With `dry_run=true`: **200**, nothing stored, `import.id` is `""` and `request` (the register-obligation body that would be sent; `context_ids` lists only contexts that exist already) replaces `result`.',
    "Refused: content that is neither a UBL/CII invoice nor a PDF → 415 `unsupported_media_type`; a DOCTYPE or ENTITY declaration (no DTD or entity is ever resolved), malformed or too deeply nested XML, a PDF without an invoice attachment, a missing mandatory business term (BT-1, BT-2, BT-5, BT-27, BT-44, BT-115, named in the message) or a currency BT-5 outside CAD, USD, EUR, GBP, JPY, AUD, CHF → 422 `einvoice_unreadable`; BT-115 not above zero → 422 `nothing_payable`; the same seller and invoice number again (another Idempotency-Key) → 409 `duplicate` naming the existing obligation; over 10 MiB → 413.",
  ].join("\n\n"),
  tags: ["Obligations"],
  auth: "issuer",
  permission: "obligations:write",
  idempotent: "required",
  multipart: ZImportForm,
  success: {
    status: 201,
    description: "Imported (200 with `request` instead of `result` for a dry run)",
    schema: ZImportResult,
    example: {
      import: {
        id: "0b7e6d5c-4a39-4f28-9e17-d6c5b4a39281",
        format: "cii",
        document_type: "invoice",
        profile: "urn:cen.eu:en16931:2017",
        source: "pdf",
        sha256: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
      },
      result: exampleMutationResult("obligation.registered", { withPaymentRequest: true }),
      warnings: [{ rule: "BR-CO-10", message: "BT-106 sum of invoice line net amount 1000.00 is not the sum of the line net amounts (BT-131) 999.99" }],
    },
  },
  otherSuccess: [
    { status: 200, description: 'Dry run: nothing stored; `request` instead of `result`, `import.id` ""', schema: ZImportResult, example: DRY_RUN_EXAMPLE },
  ],
});

export const einvoiceOperations = [importObligationOp];
