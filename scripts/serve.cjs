// The server process of `npm start` (scripts/start.ts spawns it): scripts/server.mjs, the
// direct API path and Next.js's request handler on PORT.
// WEB_CONCURRENCY=n (n > 1) runs n server processes that share the port through
// node:cluster (the primary accepts connections and hands them out in turn), so one machine's
// cores all serve requests; they are instances like any other (nothing shared lives in a
// process's memory: sessions, idempotency, rate limits and the workers' claims are in the
// database). Unset or 1: this process is the server itself. A worker that dies after it
// served is replaced; one that dies before it listened (a port in use, a bad configuration)
// stops them all. SIGINT/SIGTERM stop them all; the primary exits with the first worker's
// exit code once all have stopped.
const cluster = require("node:cluster");

const n = Number(process.env.WEB_CONCURRENCY || 1);
if (!Number.isInteger(n) || n < 1 || n > 64) {
  console.error(`WEB_CONCURRENCY must be an integer from 1 to 64, not ${JSON.stringify(process.env.WEB_CONCURRENCY)}`);
  process.exit(1);
}

if (n === 1 || !cluster.isPrimary) {
  import("./server.mjs");
} else {
  let stopping = false;
  let code;
  const stop = (signal) => {
    stopping = true;
    for (const w of Object.values(cluster.workers)) w?.process.kill(signal);
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
  const listened = new Set();
  cluster.on("listening", (worker) => listened.add(worker.id));
  cluster.on("exit", (worker, exitCode, signal) => {
    code ??= exitCode ?? (signal ? 1 : 0);
    if (!stopping && !listened.has(worker.id)) stop("SIGTERM");
    if (!stopping) {
      console.error(`server process ${worker.process.pid} ended (${signal ?? exitCode}); starting another`);
      cluster.fork();
    } else if (Object.keys(cluster.workers).length === 0) process.exit(code);
  });
  for (let i = 0; i < n; i++) cluster.fork();
}
