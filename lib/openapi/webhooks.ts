import type { z } from "zod";
import { ZWebhookPayload } from "@/lib/schemas/webhooks";
import { WEBHOOK_DELIVERY_DOC } from "@/lib/operations/webhooks";

// The OpenAPI 3.1 `webhooks` section: the request the service sends to registered endpoints.
// `toSchema` is the document's converter, so shared schemas become component $refs.
export function webhooksSection(toSchema: (schema: z.ZodType, io: "input" | "output") => Record<string, unknown>) {
  const schema = toSchema(ZWebhookPayload, "output");
  const header = (name: string, description: string, example: string) => ({
    name,
    in: "header",
    required: true,
    description,
    schema: { type: "string" },
    example,
  });
  return {
    event: {
      post: {
        operationId: "webhookEvent",
        summary: "An event, POSTed to every endpoint registered when it happened",
        description: WEBHOOK_DELIVERY_DOC,
        tags: ["Webhooks"],
        security: [],
        parameters: [
          header("webhook-id", "The event id: the same on every attempt of one event (de-duplicate by it)", "5f0c6a43-8a3e-4a43-9d44-2f6b2f3c9e0a"),
          header("webhook-timestamp", "Unix time (seconds) of this attempt", "1795316438"),
          header(
            "webhook-signature",
            "`v1,` + base64 HMAC-SHA256 over `{webhook-id}.{webhook-timestamp}.{body}`, keyed with the UTF-8 bytes of the endpoint secret",
            "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=",
          ),
        ],
        requestBody: { required: true, content: { "application/json": { schema } } },
        responses: {
          "200": { description: "Any 2xx within 10 s (WEBHOOK_TIMEOUT_MS) marks the delivery succeeded" },
          "410": { description: "Gone: the endpoint is disabled and what is queued for it fails" },
          default: {
            description:
              "Any other status, a redirect, a timeout or a connection error is a failed attempt, retried per WEBHOOK_RETRY_SCHEDULE; `Retry-After` postpones the next attempt",
          },
        },
      },
    },
  };
}
