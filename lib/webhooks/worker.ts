import { env } from "@/lib/env";
import { logger } from "@/lib/log";
import { flushWebhooks } from "@/lib/webhooks/flush";

// The in-process flusher of a running server (started from instrumentation.ts): every
// WEBHOOK_WORKER_INTERVAL_MS it flushes what is due. WEBHOOK_WORKER=off disables it (use
// GET /api/v1/cron/webhooks instead). State lives in the database only, so any number of
// instances run it side by side; after an error (e.g. the database is down) it starts again
// after the interval; SIGTERM/SIGINT stop it (a flush cut short leaves leases
// that run out, and its deliveries are attempted again).
type Worker = { stop: () => void };

const g = globalThis as unknown as { __fosWebhookWorker?: Worker };

export function startWebhookWorker(): Worker | undefined {
  if (g.__fosWebhookWorker) return g.__fosWebhookWorker;
  const e = env();
  if (e.WEBHOOK_WORKER === "off") return undefined;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const tick = async () => {
    timer = undefined;
    if (stopped) return;
    try {
      // Runs until stopped: claims every interval and whenever an attempt ends, never
      // waiting for a batch, so one slow receiver delays no other endpoint.
      const s = await flushWebhooks({ pollMs: e.WEBHOOK_WORKER_INTERVAL_MS, until: () => stopped });
      if (s.claimed > 0) logger().info({ ...s }, "webhook flush");
    } catch (err) {
      logger().error({ err: (err as Error).message }, "webhook flush failed");
    }
    if (!stopped) timer = setTimeout(tick, e.WEBHOOK_WORKER_INTERVAL_MS);
  };
  const worker: Worker = {
    stop: () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      g.__fosWebhookWorker = undefined;
    },
  };
  g.__fosWebhookWorker = worker;
  timer = setTimeout(tick, e.WEBHOOK_WORKER_INTERVAL_MS);
  process.once("SIGTERM", worker.stop);
  process.once("SIGINT", worker.stop);
  logger().info({ intervalMs: e.WEBHOOK_WORKER_INTERVAL_MS }, "webhook worker started");
  return worker;
}
