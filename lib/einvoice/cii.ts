import type { Einvoice, EinvoiceParty, Identifier } from "@/lib/einvoice/model";
import { all, attr, first, text, textAt, type XNode } from "@/lib/einvoice/xml";

// UN/CEFACT CII D16B CrossIndustryInvoice (XRechnung CII, Factur-X / ZUGFeRD 2.x, every
// profile from MINIMUM to EXTENDED) by the EN 16931 CII syntax binding.

// Document type codes that are credit notes (UNTDID 1001): 381 credit note, 261 self-billed
// credit note, 262 consolidated credit note, 396 factored credit note, 532 forwarder's credit note.
const CREDIT_CODES = new Set(["381", "261", "262", "296", "308", "396", "420", "458", "532"]);

export function readCii(root: XNode): Einvoice {
  const doc = first(root, "ExchangedDocument");
  const tx = first(root, "SupplyChainTradeTransaction");
  const agreement = first(tx, "ApplicableHeaderTradeAgreement");
  const settlement = first(tx, "ApplicableHeaderTradeSettlement");
  const sum = first(settlement, "SpecifiedTradeSettlementHeaderMonetarySummation");
  const currency = textAt(settlement, "InvoiceCurrencyCode");
  const taxTotals = all(sum, "TaxTotalAmount");
  const tax = taxTotals.find((t) => attr(t, "currencyID") === currency) ?? taxTotals.find((t) => !attr(t, "currencyID"));
  const terms = all(settlement, "SpecifiedTradePaymentTerms");
  const typeCode = textAt(doc, "TypeCode");
  return {
    format: "cii",
    documentType: CREDIT_CODES.has(typeCode) ? "credit_note" : "invoice",
    typeCode,
    profile: textAt(root, "ExchangedDocumentContext", "GuidelineSpecifiedDocumentContextParameter", "ID"),
    number: textAt(doc, "ID"),
    issueDate: ciiDate(first(doc, "IssueDateTime", "DateTimeString")),
    currency,
    dueDate: terms.map((t) => ciiDate(first(t, "DueDateDateTime", "DateTimeString"))).find(Boolean) ?? "",
    projectReference: textAt(agreement, "SpecifiedProcuringProject", "ID"),
    contractReference: textAt(agreement, "ContractReferencedDocument", "IssuerAssignedID"),
    orderReference: textAt(agreement, "BuyerOrderReferencedDocument", "IssuerAssignedID"),
    notes: all(doc, "IncludedNote", "Content").map(text).filter(Boolean),
    precedingInvoice: textAt(settlement, "InvoiceReferencedDocument", "IssuerAssignedID"),
    seller: party(first(agreement, "SellerTradeParty")),
    buyer: party(first(agreement, "BuyerTradeParty")),
    totals: {
      lineNet: textAt(sum, "LineTotalAmount"),
      allowances: textAt(sum, "AllowanceTotalAmount"),
      charges: textAt(sum, "ChargeTotalAmount"),
      taxExclusive: textAt(sum, "TaxBasisTotalAmount"),
      tax: text(tax),
      taxInclusive: textAt(sum, "GrandTotalAmount"),
      prepaid: textAt(sum, "TotalPrepaidAmount"),
      rounding: textAt(sum, "RoundingAmount"),
      due: textAt(sum, "DuePayableAmount"),
    },
    lines: all(tx, "IncludedSupplyChainTradeLineItem").map((l) => ({
      net: textAt(l, "SpecifiedLineTradeSettlement", "SpecifiedTradeSettlementLineMonetarySummation", "LineTotalAmount"),
      name: textAt(l, "SpecifiedTradeProduct", "Name"),
    })),
    payeeAccounts: all(settlement, "SpecifiedTradeSettlementPaymentMeans", "PayeePartyCreditorFinancialAccount")
      .map((a) => (textAt(a, "IBANID") || textAt(a, "ProprietaryID")).replace(/\s/g, "").toUpperCase())
      .filter(Boolean),
    paymentTerms: terms
      .filter((t) => textAt(t, "PartialPaymentAmount"))
      .map((t) => ({
        amount: textAt(t, "PartialPaymentAmount"),
        dueDate: ciiDate(first(t, "DueDateDateTime", "DateTimeString")),
        note: textAt(t, "Description"),
      })),
  };
}

// udt:DateTimeString format 102 (CCYYMMDD); other formats are passed through when already ISO.
function ciiDate(node: XNode | undefined): string {
  const s = text(node);
  if (/^\d{8}$/.test(s)) return `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}`;
  if (/^\d{4}-\d{2}-\d{2}/.test(s)) return s.slice(0, 10);
  return s;
}

function party(p: XNode | undefined): EinvoiceParty {
  const endpoint = first(p, "URIUniversalCommunication", "URIID");
  const vat = all(p, "SpecifiedTaxRegistration", "ID").find((i) => attr(i, "schemeID") === "VA");
  return {
    name: textAt(p, "Name"),
    email: textAt(p, "DefinedTradeContact", "EmailURIUniversalCommunication", "URIID"),
    endpoint: { id: text(endpoint), scheme: attr(endpoint, "schemeID") },
    identifiers: [...all(p, "ID"), ...all(p, "GlobalID")].map((i): Identifier => ({ id: text(i), scheme: attr(i, "schemeID") })).filter((i) => i.id),
    legalId: textAt(p, "SpecifiedLegalOrganization", "ID"),
    vatId: text(vat),
  };
}
