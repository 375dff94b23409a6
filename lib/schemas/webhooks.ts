import { z } from "zod";
import { ZTimestamp, ZUuid } from "@/lib/schemas/common";
import { ZObligationProjection } from "@/lib/schemas/obligations";
import { EVENT_TYPES } from "@/lib/events/event-types";
import { ZExpiringPaymentRequest, ZScheduledTerm } from "@/lib/schemas/scheduler";
import { ZDisputeView } from "@/lib/schemas/obligations";

// Webhook endpoints and deliveries (docs/webhooks.md).

export const ZWebhookUrl = z
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
  });
export const ZWebhookSecret = z
  .string()
  .min(32, "must be 32 to 256 characters")
  .max(256, "must be 32 to 256 characters")
  .meta({ description: "Shared signing secret (32 to 256 characters). The HMAC key is its UTF-8 bytes. Stored encrypted, never returned.", writeOnly: true });
// The event types an endpoint receives; empty (the default) is every type.
const ZEventTypeFilter = z
  .array(z.enum(EVENT_TYPES, { message: "must be one of the documented event types" }))
  .max(EVENT_TYPES.length)
  .refine((a) => new Set(a).size === a.length, "must not repeat an event type")
  .meta({ description: "The event types this endpoint receives; empty means every type (the default).", example: ["obligation.overdue", "payment.allocated"] });

export const ZWebhookEndpointInput = z.strictObject({
  url: ZWebhookUrl,
  secret: ZWebhookSecret,
  event_types: ZEventTypeFilter.optional(),
});
export type TWebhookEndpointInput = z.infer<typeof ZWebhookEndpointInput>;

export const ZWebhookEndpointUpdate = z
  .strictObject({
    url: ZWebhookUrl.optional(),
    enabled: z.boolean().optional().meta({ description: "false stops new deliveries (what is queued fails); true resumes them" }),
    event_types: ZEventTypeFilter.optional(),
    secret: ZWebhookSecret.optional().meta({
      description:
        "A new signing secret. For 24 hours after the change every delivery carries two signatures, space-separated in `webhook-signature`: the new secret's and the previous one's.",
      writeOnly: true,
    }),
  })
  .refine((b) => Object.keys(b).length > 0, "give at least one of url, enabled, event_types, secret");
export type TWebhookEndpointUpdate = z.infer<typeof ZWebhookEndpointUpdate>;

export const ZWebhookTestSent = z
  .strictObject({
    event_id: z.string().meta({ format: "uuid", description: "The `webhook.test` event: the payload `id` and the `webhook-id` header" }),
    delivery_id: z.string().meta({ format: "uuid", description: "Its delivery to this endpoint (GET /webhook-deliveries)" }),
  })
  .meta({ description: "A test event queued for this endpoint only" });

export const ZWebhookEndpointCreated = z.strictObject({
  id: z.string().meta({ format: "uuid" }),
  url: z.string(),
});

const ZTimestampOrEmpty = z.string().meta({ description: 'RFC 3339 UTC timestamp, or "" when not set', example: "2026-11-22T10:00:00.000Z" });

export const ZWebhookEndpoint = z
  .strictObject({
    id: z.string().meta({ format: "uuid" }),
    url: z.string(),
    enabled: z.boolean().meta({
      description:
        "false once disabled (PATCH, the receiver answered 410 Gone, or 5 days of failing every attempt); a disabled endpoint gets no new deliveries",
    }),
    disabled_reason: z.string().meta({ description: 'Why the endpoint was disabled, or ""' }),
    created_at: ZTimestamp,
    last_success_at: ZTimestampOrEmpty,
    last_failure_at: ZTimestampOrEmpty,
    consecutive_failures: z.number().int().min(0).meta({ description: "Failed attempts since the last success" }),
    event_types: z.array(z.string()).meta({ description: "The event types it receives; empty means every type" }),
    failing_since: ZTimestampOrEmpty.meta({
      description: 'When its current run of failed attempts began ("" after a success); failing every attempt for 5 days disables it',
    }),
    previous_secret_until: ZTimestampOrEmpty.meta({
      description: 'After a secret rotation: until when deliveries are also signed with the previous secret ("" when not)',
    }),
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
export const ZEndpointIdParams = z.strictObject({ id: ZUuid });

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
        webhook_endpoint: ZWebhookEndpoint.optional().meta({ description: "webhook_endpoint.disabled: the endpoint after it was disabled" }),
        test: z.literal(true).optional().meta({ description: "webhook.test: always true (sent by POST /webhook-endpoints/{id}/test)" }),
        dispute: ZDisputeView.optional().meta({ description: "obligation.disputed and obligation.dispute_resolved: the dispute after the change" }),
        promise: z.record(z.string(), z.unknown()).optional().meta({
          description:
            "obligation.payment_promised: the promise (`date`, `amount_minor`, `status` open, `made_at`); promise.kept / promise.broken: the same with its outcome as `status` and `settled_since_minor`",
        }),
      })
      .meta({ description: "Snapshot taken in the transaction of the change" }),
  })
  .meta({ title: "WebhookEvent" });
