import { logger } from "@/lib/log";
import { pruneExpired } from "@/lib/maintenance/prune";
import { onShutdown } from "@/lib/maintenance/shutdown";

// Runs pruneExpired every 10 minutes in each server instance (started from
// instrumentation.ts). Every statement is idempotent, so instances need no coordination.
const INTERVAL_MS = 10 * 60_000;
const g = globalThis as unknown as { __fosHousekeeper?: NodeJS.Timeout };

export function startHousekeeping(): void {
  if (g.__fosHousekeeper) return;
  const run = () =>
    pruneExpired()
      .then((counts) => logger().info({ ...counts }, "housekeeping"))
      .catch((err) => logger().error({ err: (err as Error).message }, "housekeeping failed"));
  g.__fosHousekeeper = setInterval(run, INTERVAL_MS);
  g.__fosHousekeeper.unref();
  const first = setTimeout(run, 30_000).unref();
  onShutdown(async () => {
    clearInterval(g.__fosHousekeeper);
    clearTimeout(first);
  });
}
