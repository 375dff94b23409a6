import type { Einvoice, EinvoiceParty, Identifier } from "@/lib/einvoice/model";
import { all, attr, first, text, textAt, type XNode } from "@/lib/einvoice/xml";

// UBL 2.1 Invoice / CreditNote (Peppol BIS Billing 3.0, XRechnung UBL, EN 16931) by the
// EN 16931 UBL syntax binding.
export function readUbl(root: XNode, kind: "Invoice" | "CreditNote"): Einvoice {
  const isCredit = kind === "CreditNote";
  const currency = textAt(root, "DocumentCurrencyCode");
  const totals = first(root, "LegalMonetaryTotal");
  const amount = (name: string) => textAt(totals, name);
  // BT-110: the TaxTotal whose TaxAmount is in the document currency (BT-111 is the other).
  const taxAmounts = all(root, "TaxTotal", "TaxAmount");
  const tax = taxAmounts.find((t) => attr(t, "currencyID") === currency) ?? (taxAmounts.length === 1 ? taxAmounts[0] : undefined);
  const lines = all(root, isCredit ? "CreditNoteLine" : "InvoiceLine").map((l) => ({ net: textAt(l, "LineExtensionAmount"), name: textAt(l, "Item", "Name") }));
  const project =
    textAt(root, "ProjectReference", "ID") ||
    text(
      first(
        all(root, "AdditionalDocumentReference").find((d) => textAt(d, "DocumentTypeCode") === "50"),
        "ID",
      ),
    );
  return {
    format: "ubl",
    documentType: isCredit ? "credit_note" : "invoice",
    typeCode: textAt(root, isCredit ? "CreditNoteTypeCode" : "InvoiceTypeCode"),
    profile: textAt(root, "CustomizationID"),
    number: textAt(root, "ID"),
    issueDate: textAt(root, "IssueDate"),
    currency,
    dueDate: textAt(root, "DueDate") || textAt(root, "PaymentMeans", "PaymentDueDate"),
    projectReference: project,
    contractReference: textAt(root, "ContractDocumentReference", "ID"),
    orderReference: textAt(root, "OrderReference", "ID"),
    notes: all(root, "Note").map(text).filter(Boolean),
    precedingInvoice: textAt(root, "BillingReference", "InvoiceDocumentReference", "ID"),
    seller: party(first(root, "AccountingSupplierParty", "Party")),
    buyer: party(first(root, "AccountingCustomerParty", "Party")),
    totals: {
      lineNet: amount("LineExtensionAmount"),
      allowances: amount("AllowanceTotalAmount"),
      charges: amount("ChargeTotalAmount"),
      taxExclusive: amount("TaxExclusiveAmount"),
      tax: text(tax),
      taxInclusive: amount("TaxInclusiveAmount"),
      prepaid: amount("PrepaidAmount"),
      rounding: amount("PayableRoundingAmount"),
      due: amount("PayableAmount"),
    },
    lines,
    payeeAccounts: all(root, "PaymentMeans", "PayeeFinancialAccount")
      .map((a) => textAt(a, "ID").replace(/\s/g, "").toUpperCase())
      .filter(Boolean),
    paymentTerms: all(root, "PaymentTerms").map((t) => ({
      amount: textAt(t, "Amount"),
      dueDate: textAt(t, "PaymentDueDate") || textAt(t, "InstallmentDueDate"),
      note: all(t, "Note").map(text).join(" "),
    })),
  };
}

function party(p: XNode | undefined): EinvoiceParty {
  const endpoint = first(p, "EndpointID");
  const vat = all(p, "PartyTaxScheme").find((s) => textAt(s, "TaxScheme", "ID").toUpperCase() === "VAT") ?? first(p, "PartyTaxScheme");
  return {
    name: textAt(p, "PartyLegalEntity", "RegistrationName") || textAt(p, "PartyName", "Name"),
    email: textAt(p, "Contact", "ElectronicMail"),
    endpoint: { id: text(endpoint), scheme: attr(endpoint, "schemeID") },
    // BT-29 / BT-46; an identifier with scheme SEPA is the seller's bank-assigned creditor
    // identifier (BT-90, as XRechnung writes it), not an identifier of the party.
    identifiers: all(p, "PartyIdentification", "ID")
      .map((i): Identifier => ({ id: text(i), scheme: attr(i, "schemeID") }))
      .filter((i) => i.id && i.scheme.toUpperCase() !== "SEPA"),
    legalId: textAt(p, "PartyLegalEntity", "CompanyID"),
    vatId: textAt(vat, "CompanyID"),
  };
}
