import { env } from "@/lib/env";
import { logger } from "@/lib/log";
import { sweepScheduled } from "@/lib/scheduler/sweep";

// The in-process scheduler of a running server (started from instrumentation.ts): every
// SCHEDULER_INTERVAL_MS it sweeps until nothing is due (each sweep bounded to ~20 s; a
// backlog continues at once in the next sweep). 0/off disables it (use GET
// /api/v1/cron/scheduler instead). State lives in the database only (claims with FOR UPDATE
// SKIP LOCKED, marks as the backstop), so every instance runs it. SIGTERM/SIGINT stop it
// between batches; a batch cut short by kill -9 rolls back and is swept again.
type Worker = { stop: () => void };

const g = globalThis as unknown as { __fosScheduler?: Worker };

export function startScheduler(): Worker | undefined {
  if (g.__fosScheduler) return g.__fosScheduler;
  const intervalMs = env().SCHEDULER_INTERVAL_MS;
  if (intervalMs === 0) return undefined;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const tick = async () => {
    timer = undefined;
    if (stopped) return;
    let more = false;
    try {
      const s = await sweepScheduled({ budgetMs: 20_000, until: () => stopped });
      more = s.more;
      if (s.claimed > 0) logger().info({ ...s }, "scheduler sweep");
    } catch (err) {
      logger().error({ err: (err as Error).message }, "scheduler sweep failed");
    }
    if (!stopped) timer = setTimeout(tick, more ? 0 : intervalMs);
  };
  const worker: Worker = {
    stop: () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      g.__fosScheduler = undefined;
    },
  };
  g.__fosScheduler = worker;
  // The first sweep soon after start: catches up what became due while no instance ran.
  timer = setTimeout(tick, Math.min(intervalMs, 5_000));
  process.once("SIGTERM", worker.stop);
  process.once("SIGINT", worker.stop);
  logger().info({ intervalMs }, "scheduler started");
  return worker;
}
