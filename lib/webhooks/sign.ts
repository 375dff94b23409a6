import { createHmac } from "node:crypto";

// Standard Webhooks signing (https://www.standardwebhooks.com): the signature is
// base64(HMAC-SHA256(key, "{webhook-id}.{webhook-timestamp}.{body}")), sent as
// `webhook-signature: v1,<signature>`. The key is the UTF-8 bytes of the registered secret
// (a Standard Webhooks verifier is constructed with base64(secret bytes)).
export function signatureHeaders(input: { id: string; timestampSeconds: number; body: string; secret: string }): Record<string, string> {
  const { id, timestampSeconds, body, secret } = input;
  const mac = createHmac("sha256", Buffer.from(secret, "utf8")).update(`${id}.${timestampSeconds}.${body}`).digest("base64");
  return {
    "webhook-id": id,
    "webhook-timestamp": String(timestampSeconds),
    "webhook-signature": `v1,${mac}`,
  };
}
