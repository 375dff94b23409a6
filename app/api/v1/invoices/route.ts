import { handle } from "@/lib/http/handle";
import { createInvoiceOp, listInvoicesOp } from "@/lib/operations/invoices";
import { createInvoice } from "@/lib/invoices/create-invoice";
import { listInvoices } from "@/lib/obligations/list-obligations";
import { notServed } from "@/lib/http/not-served";

// POST /invoices – create an invoice (obligation of type invoice)
export const POST = handle(createInvoiceOp, async ({ tx, principal, body }) => ({
  status: 201,
  body: await createInvoice(tx, { organizationId: principal.organizationId, principal, body }),
}));

// GET /invoices – list invoice records, newest first
export const GET = handle(listInvoicesOp, async ({ tx, principal, query }) => ({
  status: 200,
  body: await listInvoices(tx, { organizationId: principal.organizationId, query: query }),
}));

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { PUT, PATCH, DELETE } = notServed("GET", "POST");
