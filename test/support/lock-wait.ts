import type pg from "pg";

// Waits until another session of this database waits for a lock (one `c` holds, say). On a
// Citus coordinator the wait is on a worker, where the coordinator's pg_stat_activity does not
// show it: citus_lock_waits does.
export async function untilSomeoneWaits(c: pg.Client, what: string, timeoutMs = 10_000): Promise<void> {
  const citus = (await c.query("SELECT 1 FROM pg_extension WHERE extname = 'citus'")).rowCount;
  const waiting = citus
    ? "SELECT count(*)::int AS n FROM citus_lock_waits"
    : "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()";
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if ((await c.query(waiting)).rows[0].n > 0) return;
    if (Date.now() > deadline) throw new Error(`${what} never waited for the lock`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
