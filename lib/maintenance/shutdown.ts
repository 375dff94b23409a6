import { logger } from "@/lib/log";

// An instance's orderly stop (SIGTERM, scripts/server.mjs; docs/scaling.md): `stopping()`
// turns true, so the workers and the cron endpoints claim nothing more; `shutdown()` runs
// the hooks the workers registered (wait for the round under way, hand back what is still
// claimed) within the grace period. Process-wide: two bundles of lib/ may run in one process.
type Hook = (deadline: number) => Promise<void>;
const g = globalThis as unknown as { __fosStopping?: boolean; __fosShutdownHooks?: Hook[]; __fosShutdown?: (deadline: number) => Promise<void> };
g.__fosShutdownHooks ??= [];
const hooks = g.__fosShutdownHooks;

export function stopping(): boolean {
  return g.__fosStopping === true;
}

// `hook` gets the end of the grace period (a Date.now() time): work under way may finish until
// then; what is still held then is handed back.
export function onShutdown(hook: Hook): void {
  hooks.push(hook);
}

// What a hook may still take after `deadline` to hand back what it holds (one statement).
const HAND_BACK_MS = 5_000;

// Marks the instance as stopping and runs every hook; settles when all are done, or
// HAND_BACK_MS after `deadline` at the latest.
export async function shutdown(deadline: number): Promise<void> {
  g.__fosStopping = true;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((r) => (timer = setTimeout(r, Math.max(0, deadline + HAND_BACK_MS - Date.now()))));
  const all = Promise.all(hooks.splice(0).map((h) => h(deadline).catch((err) => logger().error({ err: (err as Error).message }, "shutdown step failed"))));
  await Promise.race([all, late]);
  clearTimeout(timer);
}

// scripts/server.mjs finds it here whichever bundle loaded the workers (the direct API
// path's, or Next.js's instrumentation with API_SERVER=next).
g.__fosShutdown ??= shutdown;
