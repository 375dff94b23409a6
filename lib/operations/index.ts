import type { Operation } from "@/lib/http/operation";
import { sessionOperations } from "@/lib/operations/sessions";
import { obligationOperations } from "@/lib/operations/obligations";
import { invoiceOperations } from "@/lib/operations/invoices";
import { contextOperations } from "@/lib/operations/contexts";
import { paymentOperations } from "@/lib/operations/payments";
import { reconciliationOperations } from "@/lib/operations/reconciliation";
import { recipientOperations } from "@/lib/operations/recipient";
import { webhookOperations } from "@/lib/operations/webhooks";
import { paymentInstructionOperations } from "@/lib/operations/payment-instructions";
import { einvoiceOperations } from "@/lib/operations/einvoice";
import { adminOperations } from "@/lib/operations/admin";
import { schedulerOperations } from "@/lib/operations/scheduler";
import { inboxOperations } from "@/lib/operations/inbox";
import { counterpartyOperations } from "@/lib/operations/counterparties";
import { recipientAccountOperations } from "@/lib/operations/recipient-accounts";
import { reminderOperations } from "@/lib/operations/reminders";

// Every operation of the API, in document order. Each capability adds its list here.
export const ALL_OPERATIONS: Operation[] = [
  ...sessionOperations,
  ...invoiceOperations,
  ...obligationOperations,
  ...einvoiceOperations,
  ...contextOperations,
  ...counterpartyOperations,
  ...paymentOperations,
  ...reconciliationOperations,
  ...recipientOperations,
  ...inboxOperations,
  ...recipientAccountOperations,
  ...webhookOperations,
  ...paymentInstructionOperations,
  ...adminOperations,
  ...schedulerOperations,
  ...reminderOperations,
];
