import type { WebhookDelivery, WebhookEndpoint } from "@/lib/generated/prisma/client";
import type { TWebhookDelivery, TWebhookEndpoint } from "@/lib/schemas/webhooks";

// Database rows -> the wire shapes of lib/schemas/webhooks.ts. Unset timestamps are "".

const ts = (d: Date | null) => (d ? d.toISOString() : "");

export function webhookEndpointView(r: WebhookEndpoint): TWebhookEndpoint {
  return {
    id: r.id,
    url: r.url,
    enabled: r.enabled,
    disabled_reason: r.disabledReason,
    created_at: r.createdAt.toISOString(),
    last_success_at: ts(r.lastSuccessAt),
    last_failure_at: ts(r.lastFailureAt),
    consecutive_failures: r.consecutiveFailures,
    event_types: r.eventTypes,
    failing_since: ts(r.failingSince),
    // Shown while it still signs: the previous secret stops signing at this instant.
    previous_secret_until: r.previousSecretExpiresAt && r.previousSecretExpiresAt.getTime() > Date.now() ? ts(r.previousSecretExpiresAt) : "",
  };
}

// `eventType` comes from the event the delivery carries (deliveries keep only its id).
export function webhookDeliveryView(r: WebhookDelivery, eventType: string): TWebhookDelivery {
  return {
    id: r.id,
    endpoint_id: r.endpointId,
    event_id: r.eventId,
    event_type: eventType,
    status: r.status as TWebhookDelivery["status"],
    attempts: r.attempts,
    next_attempt_at: r.status === "pending" ? ts(r.nextAttemptAt) : "",
    last_attempt_at: ts(r.lastAttemptAt),
    last_response_status: r.lastResponseStatus,
    last_error: r.lastError,
    created_at: r.createdAt.toISOString(),
  };
}
