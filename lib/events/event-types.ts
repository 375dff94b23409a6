// In a module of their own, without database imports: a client component reads the list
// (through lib/schemas/webhooks.ts).

// The event types (documented in the OpenAPI document): the event_type of mutation
// results, the audit trail entry and the webhook `type`.
export const EVENT_TYPES = [
  "obligation.registered",
  "obligation.payment_requested",
  "obligation.link_opened",
  "obligation.link_revoked",
  "obligation.link_reissued",
  "obligation.acknowledged",
  "obligation.dates_shared",
  "obligation.payment_reported",
  "obligation.message_posted",
  "obligation.document_added",
  "obligation.condition_satisfied",
  "obligation.condition_waived",
  "obligation.context_linked",
  "obligation.expected_payment_date_set",
  "obligation.disputed",
  "obligation.dispute_resolved",
  "obligation.payment_promised",
  "payment.recorded",
  "payment.allocated",
  // The whole life of an obligation (docs/obligations.md, Lifecycle, docs/obligations.md, Lifecycle).
  "obligation.amended",
  "obligation.credited",
  "obligation.credit_reversed",
  "payment.allocation_reversed",
  "payment.dismissed",
  "payment.restored",
  "bank_statement.imported",
  "payment.suggestion_rejected",
  "reconciliation_settings.updated",
  // The payer's account (docs/recipient-portal.md): one transfer for several obligations.
  "basket.created",
  // Produced by the service's clock (lib/scheduler/sweep.ts), not by a request.
  "obligation.term_payable",
  "obligation.due",
  "obligation.overdue",
  "payment_request.expiring",
  // Reminders (docs/reminders.md, lib/reminders): the policy changed; a reminder due for the
  // webhook consumer to send, sent by email, or failed at the SMTP server.
  "reminder_policy.updated",
  "obligation.reminder_due",
  "obligation.reminder_sent",
  "obligation.reminder_failed",
  // Webhook endpoint management (lib/webhooks): a test event sent to one endpoint, and an
  // endpoint disabled after 5 days of failing every attempt.
  "webhook.test",
  "webhook_endpoint.disabled",
  "promise.kept",
  "promise.broken",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];
