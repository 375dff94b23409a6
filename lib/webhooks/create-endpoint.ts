import type { Tx } from "@/lib/db/client";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { sealSecret } from "@/lib/crypto";
import type { TWebhookEndpointCreated, TWebhookEndpointInput } from "@/lib/schemas/webhooks";
import { DestinationRefused, ResolutionFailed, checkDestination } from "@/lib/webhooks/ssrf";

const REGISTRATION_DNS_TIMEOUT_MS = 3000;

// Registration's destination check, run before the request's transaction (it resolves
// DNS, up to 3 s). Every A/AAAA record of the host must be public (unless
// WEBHOOK_ALLOW_PRIVATE_NETWORKS=true); a host that does not resolve right now is accepted
// (every delivery resolves and checks again, and connects only to the checked address).
// The refusal names the setting that allows private destinations.
export async function checkWebhookDestination(input: { url?: string }): Promise<void> {
  if (env().WEBHOOK_ALLOW_PRIVATE_NETWORKS || input.url === undefined) return;
  try {
    await checkDestination(new URL(input.url), { allowPrivate: false, timeoutMs: REGISTRATION_DNS_TIMEOUT_MS });
  } catch (e) {
    if (e instanceof DestinationRefused)
      throw new AppError(
        "validation_failed",
        `body.url: ${e.message}; private and loopback destinations are accepted only when the server runs with WEBHOOK_ALLOW_PRIVATE_NETWORKS=true`,
      );
    if (!(e instanceof ResolutionFailed)) throw e;
  }
}

// Registers a destination already checked by checkWebhookDestination. The secret is
// stored sealed (AES-256-GCM under APP_SECRET) and never returned.
export type CreateWebhookEndpointInput = { organizationId: string; body: TWebhookEndpointInput };

export async function createWebhookEndpoint(tx: Tx, input: CreateWebhookEndpointInput): Promise<TWebhookEndpointCreated> {
  const { organizationId, body } = input;
  const id = newId();
  await tx.webhookEndpoint.create({
    data: { id, organizationId, url: body.url, secretCiphertext: sealSecret(body.secret), eventTypes: body.event_types ?? [] },
  });
  return { id, url: body.url };
}
