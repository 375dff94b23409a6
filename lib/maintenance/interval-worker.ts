import { logger } from "@/lib/log";
import { onShutdown, stopping } from "@/lib/maintenance/shutdown";

// stop(): no new round; settles when the round under way (if any) has ended.
export type Worker = { stop: () => Promise<void> };

export type IntervalWorkerSpec = {
  // the globalThis slot that keeps one worker per process (module reloads included)
  slot: string;
  // what a round does, for the log ("scheduler sweep" → "scheduler sweep failed")
  label: string;
  startedMessage: string;
  intervalMs: number;
  firstDelayMs: number;
  // one round; true when work is left, so the next round starts at once
  round: (stopped: () => boolean) => Promise<boolean>;
};

// The loop of the in-process workers (scheduler, webhook flusher): a round, then the next
// after the interval (at once while work is left; after the interval again when a round
// failed, e.g. the database is down); SIGTERM/SIGINT stop it between rounds. State lives
// in the database only, so every instance runs one.
export function startIntervalWorker(spec: IntervalWorkerSpec): Worker {
  const g = globalThis as unknown as Record<string, Worker | undefined>;
  const existing = g[spec.slot];
  if (existing) return existing;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined; // the round under way
  const tick = async () => {
    timer = undefined;
    if (stopped) return;
    let more = false;
    let done = () => {};
    running = new Promise<void>((r) => (done = r));
    try {
      more = await spec.round(() => stopped || stopping());
    } catch (err) {
      logger().error({ err: (err as Error).message }, `${spec.label} failed`);
    } finally {
      done();
    }
    if (!stopped) timer = setTimeout(tick, more ? 0 : spec.intervalMs);
  };
  const worker: Worker = {
    stop: () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      g[spec.slot] = undefined;
      return running ?? Promise.resolve();
    },
  };
  g[spec.slot] = worker;
  timer = setTimeout(tick, spec.firstDelayMs);
  process.once("SIGTERM", worker.stop);
  process.once("SIGINT", worker.stop);
  onShutdown(() => worker.stop());
  logger().info({ intervalMs: spec.intervalMs }, spec.startedMessage);
  return worker;
}
