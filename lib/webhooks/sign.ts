import { createHmac } from "node:crypto";

// Standard Webhooks signing (https://www.standardwebhooks.com): the signature is
// base64(HMAC-SHA256(key, "{webhook-id}.{webhook-timestamp}.{body}")), sent as
// `webhook-signature: v1,<signature>`. The key is the UTF-8 bytes of the registered secret
// (a Standard Webhooks verifier is constructed with base64(secret bytes)). During the 24 hours
// after a secret rotation `previousSecret` is given too: both signatures, space-separated
// (new first), so a receiver still configured with either secret verifies.
export function signatureHeaders(input: {
  id: string;
  timestampSeconds: number;
  body: string;
  secret: string;
  previousSecret?: string;
}): Record<string, string> {
  const { id, timestampSeconds, body, secret, previousSecret } = input;
  const sign = (key: string) => `v1,${createHmac("sha256", Buffer.from(key, "utf8")).update(`${id}.${timestampSeconds}.${body}`).digest("base64")}`;
  return {
    "webhook-id": id,
    "webhook-timestamp": String(timestampSeconds),
    "webhook-signature": previousSecret ? `${sign(secret)} ${sign(previousSecret)}` : sign(secret),
  };
}
