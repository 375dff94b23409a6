// Next.js instrumentation: runs once when a server instance starts. On the Node.js runtime
// it starts the in-process webhook worker (WEBHOOK_WORKER=on|off), the scheduled-events sweep
// (SCHEDULER_INTERVAL_MS, 0 = off) and the housekeeping of expired records; never during a build.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.NEXT_PHASE === "phase-production-build") return;
  const { startWebhookWorker } = await import("@/lib/webhooks/worker");
  startWebhookWorker();
  const { startScheduler } = await import("@/lib/scheduler/worker");
  startScheduler();
  const { startHousekeeping } = await import("@/lib/maintenance/housekeeper");
  startHousekeeping();
}
