import { env } from "@/lib/env";
import { logger } from "@/lib/log";
import { type Worker, startIntervalWorker } from "@/lib/maintenance/interval-worker";
import { sweepScheduled } from "@/lib/scheduler/sweep";
import { refreshOverviewSnapshot } from "@/lib/overview/refresh-overview-snapshot";

// The in-process scheduler of a running server (started from instrumentation.ts): every
// SCHEDULER_INTERVAL_MS it sweeps until nothing is due (each sweep bounded to ~20 s; a
// backlog continues at once in the next sweep). 0/off disables it (use GET
// /api/v1/cron/scheduler instead). State lives in the database only (claims with FOR UPDATE
// SKIP LOCKED, marks as the backstop), so every instance runs it. SIGTERM/SIGINT stop it
// between batches; a batch cut short by kill -9 rolls back and is swept again.
// After each sweep, one stale dashboard overview snapshot is recomputed (at most one
// organization per round and instance; lib/overview/refresh-overview-snapshot.ts).
export function startScheduler(): Worker | undefined {
  const intervalMs = env().SCHEDULER_INTERVAL_MS;
  if (intervalMs === 0) return undefined;
  return startIntervalWorker({
    slot: "__fosScheduler",
    label: "scheduler sweep",
    startedMessage: "scheduler started",
    intervalMs,
    // The first sweep soon after start: catches up what became due while no instance ran.
    firstDelayMs: Math.min(intervalMs, 5_000),
    round: async (stopped) => {
      const s = await sweepScheduled({ budgetMs: 20_000, until: stopped });
      if (s.claimed > 0) logger().info({ ...s }, "scheduler sweep");
      if (!stopped()) await refreshOverview();
      return s.more;
    },
  });
}

// A failed refresh is logged on its own and does not hold up the sweep of the next round.
async function refreshOverview(): Promise<void> {
  try {
    const r = await refreshOverviewSnapshot();
    if (r.organizationId) logger().info({ ...r }, "overview snapshot");
  } catch (err) {
    logger().error({ err: (err as Error).message }, "overview snapshot refresh failed");
  }
}
