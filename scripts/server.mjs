// One server process (docs/architecture.md, "Serving"): a node:http server on PORT (and HOST)
// that hands each request first to the direct API path (.next/api/server.mjs, built by
// scripts/build-api.mjs from app/api/v1 and lib/http/api-server.ts) and otherwise to Next.js's
// own request handler (pages, the dashboard, sign-in, the payer page, /api outside v1, and
// API paths that need decoding) — the same handler `next start` runs, with its headers and
// its compression. The in-process workers start from the direct bundle too. API_SERVER=next
// turns the direct path off: every request goes through Next.js, as with `next start`, and
// Next.js's instrumentation starts the workers.
// Started by scripts/serve.cjs (one or WEB_CONCURRENCY of them); run directly only after
// `npm run build`, with the environment scripts/start.ts prepares.
import http from "node:http";
import path from "node:path";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

const require = createRequire(import.meta.url);
const dir = process.cwd();
const port = Number(process.env.PORT || 3000);
const hostname = process.env.HOST || undefined;
process.env.NODE_ENV ??= "production";
process.title = "next-server (financial-obligations-service)";

// validated by scripts/start.ts (lib/env.ts: direct | next)
const direct = (process.env.API_SERVER || "direct") === "direct";
// Next.js's own compression middleware (what `next start` applies to every response).
const compress = require("next/dist/compiled/compression")();
let dispatch = () => false;
if (direct) {
  const api = await import(pathToFileURL(path.join(dir, ".next/api/server.mjs")).href);
  dispatch = api.createDispatcher({ port, compress });
  // the workers from this bundle, before Next.js's instrumentation would load lib/ again for them
  api.startWorkers();
}

// The socket's peer appended to X-Forwarded-For, as the direct path does in its own copy of
// the headers (appendPeer, lib/http/api-server.ts and lib/http/client-address.ts, which
// takes the client's address from it): Next.js would fill the header in only when absent,
// and route handlers see no socket.
const appendPeer = (req) => {
  const sent = req.headers["x-forwarded-for"];
  const peer = req.socket.remoteAddress ?? "unknown";
  req.headers["x-forwarded-for"] = sent?.trim() ? `${sent}, ${peer}` : peer;
};

// An https deployment (PUBLIC_BASE_URL) tells browsers to use https only (docs/security.md).
const hsts = (process.env.PUBLIC_BASE_URL ?? "").startsWith("https:") ? "max-age=31536000; includeSubDomains" : undefined;

const server = http.createServer(async (req, res) => {
  if (hsts) res.setHeader("Strict-Transport-Security", hsts);
  if (dispatch(req, res)) return;
  appendPeer(req);
  try {
    if (!nextHandler) await ready;
    await nextHandler(req, res);
  } catch (err) {
    console.error(err);
    if (!res.headersSent) res.writeHead(500);
    res.end();
  }
});

let nextHandler;
const ready = (async () => {
  const { default: next } = await import("next");
  const app = next({ dev: false, dir, hostname, port, httpServer: server });
  await app.prepare();
  nextHandler = app.getRequestHandler();
  return app;
})();

server.on("error", (err) => {
  console.error(`Failed to start server: ${err.message}`);
  process.exit(1);
});
server.listen(port, hostname, () => {
  const url = `http://${hostname ?? "localhost"}:${port}`;
  process.env.PORT = String(port);
  process.env.__NEXT_PRIVATE_ORIGIN = url;
  console.log(`▲ Ready on ${url} (pid ${process.pid}, API ${direct ? "direct" : "through Next.js"})`);
});

// SIGTERM (and SIGINT): stop accepting (the listening socket closes, so a balancer sends new
// connections elsewhere), let the requests in flight finish for up to SHUTDOWN_GRACE_MS
// (answered with Connection: close, idle keep-alive connections closed), meanwhile let the
// workers finish their round and hand back the webhook leases they still hold
// (lib/maintenance/shutdown.ts), close Next.js, exit 0 (130 on SIGINT). docs/scaling.md.
const graceMs = Number(process.env.SHUTDOWN_GRACE_MS || 25_000);
const open = new Set();
server.on("request", (_req, res) => {
  if (stopping) res.shouldKeepAlive = false;
  open.add(res);
  res.once("close", () => open.delete(res));
});
let stopping = false;
const stop = async (signal) => {
  if (stopping) return;
  stopping = true;
  const deadline = Date.now() + graceMs;
  console.log(`${signal}: stopping (pid ${process.pid}); serving what is in flight for up to ${graceMs} ms`);
  for (const res of open) if (!res.headersSent) res.shouldKeepAlive = false;
  const served = new Promise((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const idle = setInterval(() => server.closeIdleConnections(), 100);
  const cut = setTimeout(() => server.closeAllConnections(), graceMs);
  const workers = globalThis.__fosShutdown?.(deadline) ?? Promise.resolve();
  await Promise.all([served, workers.catch((err) => console.error(err))]);
  clearInterval(idle);
  clearTimeout(cut);
  await ready.then((app) => app.close()).catch(() => undefined);
  process.exit(signal === "SIGINT" ? 130 : 0);
};
process.on("SIGINT", () => stop("SIGINT"));
process.on("SIGTERM", () => stop("SIGTERM"));
await ready.catch((err) => {
  console.error(err);
  process.exit(1);
});
