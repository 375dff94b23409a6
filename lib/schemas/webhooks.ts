import { z } from "zod";
import { ZTimestamp, ZUuid } from "@/lib/schemas/common";
import { ZObligationProjection } from "@/lib/schemas/obligations";
import { EVENT_TYPES } from "@/lib/events/event-types";
import { ZExpiringPaymentRequest, ZScheduledTerm } from "@/lib/schemas/scheduler";
import { ZDisputeView } from "@/lib/schemas/obligations";

// Webhook endpoints and deliveries (docs/webhooks.md).

export const ZWebhookEndpointInput = z.strictObject({
  url: z
    .url({ protocol: /^https?$/, message: "must be an absolute http or https URL" })
    .max(2048)
    .refine((u) => {
      try {
        const p = new URL(u);
        return p.username === "" && p.password === "";
      } catch {
        return true; // reported by the url check
      }
    }, "must not contain credentials (user:password@); authenticate with the signature instead")
    .meta({
      description:
        "Destination (http or https). Every A/AAAA record of its host must be a public address unless the server runs with WEBHOOK_ALLOW_PRIVATE_NETWORKS=true.",
      example: "https://hooks.example.com/fos",
    }),
  secret: z
    .string()
    .min(32, "must be 32 to 256 characters")
    .max(256, "must be 32 to 256 characters")
    .meta({ description: "Shared signing secret (32 to 256 characters). The HMAC key is its UTF-8 bytes. Stored encrypted, never returned.", writeOnly: true }),
});
export type TWebhookEndpointInput = z.infer<typeof ZWebhookEndpointInput>;

export const ZWebhookEndpointCreated = z.strictObject({
  id: z.string().meta({ format: "uuid" }),
  url: z.string(),
});

const ZTimestampOrEmpty = z.string().meta({ description: 'RFC 3339 UTC timestamp, or "" when not set', example: "2026-11-22T10:00:00.000Z" });

export const ZWebhookEndpoint = z
  .strictObject({
    id: z.string().meta({ format: "uuid" }),
    url: z.string(),
    enabled: z.boolean().meta({ description: "false once the receiver answered 410 Gone; a disabled endpoint gets no new deliveries" }),
    disabled_reason: z.string().meta({ description: 'Why the endpoint was disabled, or ""' }),
    created_at: ZTimestamp,
    last_success_at: ZTimestampOrEmpty,
    last_failure_at: ZTimestampOrEmpty,
    consecutive_failures: z.number().int().min(0).meta({ description: "Failed attempts since the last success" }),
  })
  .meta({ description: "Endpoint configuration and delivery health (never the secret)" });

export type TWebhookEndpoint = z.infer<typeof ZWebhookEndpoint>;
export type TWebhookEndpointCreated = z.infer<typeof ZWebhookEndpointCreated>;

export const ZWebhookEndpointList = z.strictObject({ items: z.array(ZWebhookEndpoint) });

export const DELIVERY_STATUSES = ["pending", "succeeded", "failed"] as const;

export const ZWebhookDelivery = z
  .strictObject({
    id: z.string().meta({ format: "uuid" }),
    endpoint_id: z.string().meta({ format: "uuid" }),
    event_id: z.string().meta({ format: "uuid", description: "The event id: also the payload `id` and the `webhook-id` header of every attempt" }),
    event_type: z.string(),
    status: z
      .enum(DELIVERY_STATUSES)
      .meta({ description: "`pending` (waiting for its next attempt) -> `succeeded`, or `failed` after the last scheduled attempt" }),
    attempts: z.number().int().min(0).meta({ description: "Attempts made so far" }),
    next_attempt_at: ZTimestampOrEmpty.meta({ description: 'When the next attempt is due; "" once succeeded or failed' }),
    last_attempt_at: ZTimestampOrEmpty,
    last_response_status: z.number().int().nullable().meta({
      description:
        "HTTP status of the last attempt; null when no attempt was made yet or no HTTP response was received (timeout, connection error, refused destination)",
    }),
    last_error: z.string().meta({ description: 'Why the last attempt failed, or ""' }),
    created_at: ZTimestamp,
  })
  .meta({ description: "One event's delivery to one endpoint" });

export type TWebhookDelivery = z.infer<typeof ZWebhookDelivery>;

export const ZWebhookDeliveryList = z.strictObject({ items: z.array(ZWebhookDelivery) });

export const ZCronSummary = z
  .strictObject({
    claimed: z.number().int().meta({ description: "Deliveries claimed and attempted" }),
    succeeded: z.number().int(),
    rescheduled: z.number().int().meta({ description: "Attempts that failed and were scheduled again" }),
    failed: z.number().int().meta({ description: "Deliveries that became `failed`" }),
    lost_lease: z.number().int().meta({ description: "Outcomes not recorded because the lease had passed to another flusher" }),
    duration_ms: z.number().int(),
  })
  .meta({ description: "What one flush did" });

export const ZDeliveryIdParams = z.strictObject({ id: ZUuid });

// The body of a webhook request (documented under the OpenAPI document's `webhooks`).
export const ZWebhookPayload = z
  .strictObject({
    id: z.string().meta({ format: "uuid", description: "The event id; equals the `webhook-id` header on every attempt" }),
    type: z.enum(EVENT_TYPES),
    created_at: ZTimestamp,
    organization_id: z.string().meta({ format: "uuid" }),
    data: z
      .object({
        obligation: ZObligationProjection.optional().meta({
          description:
            "The obligation projection after the change (every obligation.* event, and payment.allocated); its `version` lets a consumer drop a stale, out-of-order delivery",
        }),
        payment: z.record(z.string(), z.unknown()).optional().meta({ description: "payment.* events: the payment as GET /payments/{id} shows it" }),
        term: ZScheduledTerm.optional(),
        days_overdue: z
          .union([z.literal(1), z.literal(7), z.literal(30)])
          .optional()
          .meta({ description: "obligation.overdue: the threshold reached, in days after the deadline (each is sent once)" }),
        payment_request: ZExpiringPaymentRequest.optional(),
        dispute: ZDisputeView.optional().meta({ description: "obligation.disputed and obligation.dispute_resolved: the dispute after the change" }),
        promise: z.record(z.string(), z.unknown()).optional().meta({
          description:
            "obligation.payment_promised: the promise (`date`, `amount_minor`, `status` open, `made_at`); promise.kept / promise.broken: the same with its outcome as `status` and `settled_since_minor`",
        }),
      })
      .meta({ description: "Snapshot taken in the transaction of the change" }),
  })
  .meta({ title: "WebhookEvent" });
