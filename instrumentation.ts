// Next.js instrumentation: runs once when a server instance starts. On the Node.js runtime
// it starts the in-process workers (lib/maintenance/workers.ts: webhooks, scheduled events,
// housekeeping) unless the direct API path started them already (scripts/server.mjs); never
// during a build.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.NEXT_PHASE === "phase-production-build") return;
  // the same name as WORKERS_STARTED in lib/maintenance/workers.ts, read before importing it
  if ((globalThis as Record<string, unknown>).__fosWorkersStarted) return;
  const { startWorkers } = await import("@/lib/maintenance/workers");
  startWorkers();
}
