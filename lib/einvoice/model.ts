// One normalized e-invoice, read from UBL 2.1 or CII D16B, named by EN 16931 business term.
// Amounts are the decimal text of the file (converted exactly later); dates are YYYY-MM-DD.
export type EinvoiceFormat = "ubl" | "cii";
export type EinvoiceDocumentType = "invoice" | "credit_note";

export type Identifier = { id: string; scheme: string };

export type EinvoiceParty = {
  name: string; // BT-27 / BT-44
  email: string; // BT-43 / BT-58
  endpoint: Identifier; // BT-34 / BT-49 electronic address with its scheme
  identifiers: Identifier[]; // BT-29 / BT-46
  legalId: string; // BT-30 / BT-47
  vatId: string; // BT-31 / BT-48
};

export type EinvoiceTotals = {
  lineNet: string; // BT-106
  allowances: string; // BT-107
  charges: string; // BT-108
  taxExclusive: string; // BT-109
  tax: string; // BT-110 (in BT-5)
  taxInclusive: string; // BT-112
  prepaid: string; // BT-113
  rounding: string; // BT-114
  due: string; // BT-115
};

export type EinvoiceInstalment = { amount: string; dueDate: string; note: string };

export type EinvoiceLine = { net: string; name: string }; // BT-131, BT-153

export type Einvoice = {
  format: EinvoiceFormat;
  documentType: EinvoiceDocumentType;
  typeCode: string; // BT-3
  profile: string; // BT-24
  number: string; // BT-1
  issueDate: string; // BT-2
  currency: string; // BT-5
  dueDate: string; // BT-9
  projectReference: string; // BT-11
  contractReference: string; // BT-12
  orderReference: string; // BT-13
  notes: string[]; // BT-22
  precedingInvoice: string; // BT-25
  seller: EinvoiceParty;
  buyer: EinvoiceParty;
  totals: EinvoiceTotals;
  lines: EinvoiceLine[];
  paymentTerms: EinvoiceInstalment[];
  payeeAccounts: string[]; // BT-84 payment account identifiers (IBANs, spaces removed)
};

export type EinvoiceWarning = { rule: string; message: string };
