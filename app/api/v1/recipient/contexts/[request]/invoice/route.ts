import { handle } from "@/lib/http/handle";
import { recipientContextInvoiceOp } from "@/lib/operations/recipient";
import { getRecipientInvoice } from "@/lib/recipients/get-recipient-invoice";
import { notServed } from "@/lib/http/not-served";

// GET /recipient/contexts/{request}/invoice – the invoice detail of the one obligation the link grants
export const GET = handle(recipientContextInvoiceOp, async ({ tx, principal }) => ({ status: 200, body: await getRecipientInvoice(tx, { principal }) }));

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { POST, PUT, PATCH, DELETE } = notServed("GET");
