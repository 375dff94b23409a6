import { env } from "@/lib/env";

// The retry schedule: WEBHOOK_RETRY_SCHEDULE, seconds after the event, one entry per
// attempt (default 0,5,300,1800,7200,18000,36000,36000; `0` alone means one attempt).
// Attempt k (0-based, `schedule_index`) is due at event.created_at + schedule[k], or later
// when the receiver asked for it with Retry-After. After the last entry the delivery is
// `failed`.
export const retrySchedule = (): number[] => env().WEBHOOK_RETRY_SCHEDULE;

// How long a flusher owns a claimed delivery. It covers one attempt (bounded by
// WEBHOOK_TIMEOUT_MS, DNS included) plus recording its outcome, with a wide margin;
// a crashed flusher's claims become claimable again once it runs out.
export const leaseSeconds = (): number => Math.ceil((env().WEBHOOK_TIMEOUT_MS * 2) / 1000) + 5;

// An endpoint whose every attempt failed for this many days is disabled (event
// webhook_endpoint.disabled); a success in between starts the count again.
export const WEBHOOK_DISABLE_AFTER_DAYS = 5;
