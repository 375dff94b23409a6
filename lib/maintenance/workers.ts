import { startHousekeeping } from "@/lib/maintenance/housekeeper";
import { startScheduler } from "@/lib/scheduler/worker";
import { startWebhookWorker } from "@/lib/webhooks/worker";

// The in-process workers of a server process: the webhook flusher (WEBHOOK_WORKER), the
// scheduled-events sweep (SCHEDULER_INTERVAL_MS) and the housekeeping of expired records.
// Started once per process, by whichever bundle of lib/ comes first: the direct API path's
// (scripts/server.mjs) or, with API_SERVER=next, Next.js's instrumentation (instrumentation.ts),
// which checks WORKERS_STARTED before it imports anything, so the process does not load a
// second copy of lib/ for them.
export const WORKERS_STARTED = "__fosWorkersStarted";

export function startWorkers(): void {
  const g = globalThis as unknown as Record<string, boolean | undefined>;
  if (g[WORKERS_STARTED]) return;
  g[WORKERS_STARTED] = true;
  startWebhookWorker();
  startScheduler();
  startHousekeeping();
}
