import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import type { Operation } from "@/lib/http/operation";
import type { Principal } from "@/lib/auth/principal";
import { recipientRateLimited } from "@/lib/recipients/exchange-options";
import { hitRateLimit } from "@/lib/rate-limit";

// The per-link limit of a link holder's mutations (on by default) and the optional
// per-credential API limit (docs/security.md, "Bounds").
export async function enforceRateLimit(op: Operation, p: Principal): Promise<void> {
  const perLink = env().RECIPIENT_RATE_LIMIT_PER_MINUTE;
  if (p.kind === "recipient" && op.method !== "GET" && perLink > 0) {
    const s = await hitRateLimit(`recipient:${p.paymentRequestId}`, 60, perLink);
    if (s.limited) throw recipientRateLimited(s.retryAfterSeconds);
  }
  const limit = env().API_RATE_LIMIT_PER_MINUTE;
  if (limit <= 0) return;
  const who = p.kind === "api_key" ? p.apiKeyId : p.kind === "user" ? p.userId : p.kind === "recipient" ? p.sessionId : undefined;
  if (!who) return;
  const s = await hitRateLimit(`api:${who}`, 60, limit);
  if (s.limited) {
    throw new AppError("rate_limited", "too many requests; slow down", { headers: { "Retry-After": String(s.retryAfterSeconds) } });
  }
}
