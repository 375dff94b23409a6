import { env } from "@/lib/env";
import { logger } from "@/lib/log";
import { type Worker, startIntervalWorker } from "@/lib/maintenance/interval-worker";
import { flushWebhooks } from "@/lib/webhooks/flush";

// The in-process flusher of a running server (started from instrumentation.ts): every
// WEBHOOK_WORKER_INTERVAL_MS it flushes what is due. WEBHOOK_WORKER=off disables it (use
// GET /api/v1/cron/webhooks instead). State lives in the database only, so any number of
// instances run it side by side; after an error (e.g. the database is down) it starts again
// after the interval; SIGTERM/SIGINT stop it (a flush cut short leaves leases
// that run out, and its deliveries are attempted again).
export function startWebhookWorker(): Worker | undefined {
  const e = env();
  if (e.WEBHOOK_WORKER === "off") return undefined;
  return startIntervalWorker({
    slot: "__fosWebhookWorker",
    label: "webhook flush",
    startedMessage: "webhook worker started",
    intervalMs: e.WEBHOOK_WORKER_INTERVAL_MS,
    firstDelayMs: e.WEBHOOK_WORKER_INTERVAL_MS,
    round: async (stopped) => {
      // Runs until stopped: claims every interval and whenever an attempt ends, never
      // waiting for a batch, so one slow receiver delays no other endpoint.
      const s = await flushWebhooks({ pollMs: e.WEBHOOK_WORKER_INTERVAL_MS, until: stopped });
      if (s.claimed > 0) logger().info({ ...s }, "webhook flush");
      return false;
    },
  });
}
