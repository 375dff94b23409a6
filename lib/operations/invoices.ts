import { defineOperation } from "@/lib/http/operation";
import { ZIdParams, ZPageQuery } from "@/lib/schemas/common";
import {
  ZCreateInvoice,
  ZDeliveryDraft,
  ZDocumentForm,
  ZInvoiceDetail,
  ZInvoiceList,
  ZIssuerAction,
  ZMutationResult,
  ZObligationDocumentParams,
} from "@/lib/schemas/obligations";
import { EXAMPLE_PAYMENT_REQUEST, exampleInvoiceDetail, exampleInvoiceList, exampleMutationResult } from "@/lib/operations/obligation-examples";
import { ACTIONS_DESCRIPTION, DOCUMENT_DOWNLOAD_DESCRIPTION, DOCUMENT_UPLOAD_DESCRIPTION } from "@/lib/operations/obligations";
import { ATTACHMENT_SUCCESS } from "@/lib/operations/responses";

const tags = ["Invoices"];
const onlyInvoices = "Acts on obligations of type `invoice` only; any other id is 404.";

export const createInvoiceOp = defineOperation({
  operationId: "createInvoice",
  method: "POST",
  path: "/invoices",
  summary: "Create an invoice (an obligation of type invoice)",
  description:
    'The invoice source adapter: registers an obligation of type `invoice` with the organization as creditor and `recipient` as debtor, due on `due_date`. `external_reference` defaults to `{ namespace: "invoice", id: invoice_number }`. Creates the hosted payment request; event `obligation.registered`.',
  tags,
  auth: "issuer",
  permission: "obligations:write",
  idempotent: "required",
  body: ZCreateInvoice,
  bodyExample: {
    invoice_number: "INV-2026-0042",
    amount_minor: "1250000",
    currency: "EUR",
    due_date: "2026-12-31",
    recipient: { name: "Northwind Traders", email: "ap@northwind.example" },
    description: "Warehouse fit-out, phase 1",
  },
  success: {
    status: 201,
    description: "Created",
    schema: ZMutationResult,
    example: exampleMutationResult("obligation.registered", {
      withPaymentRequest: true,
      record: { conditions: [], payment_terms: [], contexts: [], condition_status: "satisfied", payable_minor: "1250000" },
    }),
  },
});

export const listInvoicesOp = defineOperation({
  operationId: "listInvoices",
  method: "GET",
  path: "/invoices",
  summary: "List invoices (newest first)",
  description: "Items are invoice records of obligations of type `invoice`, ordered by created_at, then id, both descending.",
  tags,
  auth: "issuer",
  permission: "obligations:read",
  query: ZPageQuery,
  success: { status: 200, description: "A page of invoices", schema: ZInvoiceList, example: exampleInvoiceList() },
});

export const getInvoiceOp = defineOperation({
  operationId: "getInvoice",
  method: "GET",
  path: "/invoices/{id}",
  summary: "Invoice detail with audit trail",
  description: `The invoice record plus \`audit_trail\` (oldest first), \`documents\`, \`messages\` and the \`payment_request\` view, bounded and with \`hosted_url\` as for GET /obligations/{id} (the most recent 100 events and messages; \`payment_request.hosted_url\` "" without \`obligations:write\`). ${onlyInvoices}`,
  tags,
  auth: "issuer",
  permission: "obligations:read",
  params: ZIdParams,
  success: { status: 200, description: "The invoice", schema: ZInvoiceDetail, example: exampleInvoiceDetail() },
});

export const invoiceActionsOp = defineOperation({
  operationId: "invoiceAction",
  method: "POST",
  path: "/invoices/{id}/actions",
  summary: "Apply an issuer action to an invoice",
  description: `${ACTIONS_DESCRIPTION}\n\n${onlyInvoices}`,
  tags,
  auth: "issuer",
  permission: "obligations:write",
  idempotent: "required",
  params: ZIdParams,
  body: ZIssuerAction,
  bodyExample: { action: "post_message", expected_version: 2, message: "Thanks, we have noted your payment date." },
  success: {
    status: 200,
    description: "Applied",
    schema: ZMutationResult,
    example: exampleMutationResult("obligation.message_posted", { record: { version: 3 } }),
  },
});

export const invoiceDeliveryOp = defineOperation({
  operationId: "invoiceDeliveryDraft",
  method: "GET",
  path: "/invoices/{id}/delivery",
  summary: "Delivery draft: the email text with the hosted URL (sends nothing)",
  description: `Returns \`{ to, subject, text, html, hosted_url }\` for your own message to the recipient: \`to\` is an RFC 5322 address (\`"Name" <email>\`, or "" without an email), \`text\` and \`html\` contain the hosted URL (everything in \`html\` is escaped). Sends nothing, records nothing (no event, no status change; use \`mark_sent\` after sending). A revoked or expired link is 410. The draft holds the hosted URL, a write capability: it needs \`obligations:write\` (a read-only API key gets 403 \`insufficient_scope\`, a viewer 403 \`insufficient_permission\`). ${onlyInvoices}`,
  tags,
  auth: "issuer",
  permission: "obligations:write",
  params: ZIdParams,
  success: {
    status: 200,
    description: "The draft",
    schema: ZDeliveryDraft,
    example: {
      to: "Northwind Traders <ap@northwind.example>",
      subject: "Invoice INV-2026-0042 from Demo Company Ltd",
      text: `Hello Northwind Traders,\n\nDemo Company Ltd has sent you invoice INV-2026-0042 for 12,500.00 EUR, due on 2026-12-31.\n\nView the invoice, let us know when you expect to pay, report a payment or send us a message here:\n${EXAMPLE_PAYMENT_REQUEST.hosted_url}\n\nThis link is personal to you. Please do not forward it.\n\nDemo Company Ltd`,
      html: `<!doctype html>\n<html><body>...<a href="${EXAMPLE_PAYMENT_REQUEST.hosted_url}">View the invoice and respond</a>...</body></html>`,
      hosted_url: EXAMPLE_PAYMENT_REQUEST.hosted_url,
    },
  },
  errors: [410],
});

export const uploadInvoiceDocumentOp = defineOperation({
  operationId: "uploadInvoiceDocument",
  method: "POST",
  path: "/invoices/{id}/documents",
  summary: "Upload a document to an invoice",
  description: `${DOCUMENT_UPLOAD_DESCRIPTION} ${onlyInvoices}`,
  tags,
  auth: "issuer",
  permission: "obligations:write",
  idempotent: "required",
  params: ZIdParams,
  multipart: ZDocumentForm,
  success: {
    status: 201,
    description: "Stored",
    schema: ZMutationResult,
    example: exampleMutationResult("obligation.document_added", { documentId: "4d3c2b1a-0f9e-4d8c-b7a6-5f4e3d2c1b0a", record: { version: 2 } }),
  },
});

export const downloadInvoiceDocumentOp = defineOperation({
  operationId: "downloadInvoiceDocument",
  method: "GET",
  path: "/invoices/{id}/documents/{document}",
  summary: "Download a document of an invoice",
  description: `${DOCUMENT_DOWNLOAD_DESCRIPTION} ${onlyInvoices}`,
  tags,
  auth: "issuer",
  permission: "obligations:read",
  params: ZObligationDocumentParams,
  success: ATTACHMENT_SUCCESS,
});

export const invoiceOperations = [
  createInvoiceOp,
  listInvoicesOp,
  getInvoiceOp,
  invoiceActionsOp,
  invoiceDeliveryOp,
  uploadInvoiceDocumentOp,
  downloadInvoiceDocumentOp,
];
