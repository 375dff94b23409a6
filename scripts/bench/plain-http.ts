// Experiment (docs/benchmarks.md, step 9): the same route handlers served by a plain node:http
// server instead of `next start`, to measure what Next.js's per-request machinery costs.
// It imports app/api/v1/obligations/route.ts and app/api/v1/session/route.ts as they are
// (the pipeline, validation, database and all) and only replaces the server around them:
// no routing beyond an exact path, no Next.js request/response adapters, tracing or piping.
// Not a way to run the service (no pages, no other routes, no security headers). It led to
// the direct API path the server now runs (lib/http/api-server.ts; docs/benchmarks.md, step 10).
//
//   DATABASE_URL=postgres://... APP_SECRET=... PORT=3999 npx tsx scripts/bench/plain-http.ts
//
// then drive it and `next start` on the same database with the same load, e.g.
//   npx autocannon -c 8 -d 10 http://127.0.0.1:3999/api/v1/session
// and compare requests per second and the processes' CPU time (/proc/<pid>/stat).
import http from "node:http";
import * as obligations from "@/app/api/v1/obligations/route";
import * as session from "@/app/api/v1/session/route";

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
const routes: Record<string, Handler> = {
  "GET /api/v1/session": session.GET,
  "POST /api/v1/obligations": obligations.POST,
  "GET /api/v1/obligations": obligations.GET,
};
const noParams = { params: Promise.resolve({}) };

const server = http.createServer(async (req, res) => {
  try {
    const url = new URL(req.url ?? "/", `http://${req.headers.host ?? "localhost"}`);
    const handler = routes[`${req.method} ${url.pathname}`];
    if (!handler) {
      res.writeHead(404).end();
      return;
    }
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
    const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
    const response = await handler(new Request(url, { method: req.method, headers, body }), noParams);
    const out = Buffer.from(await response.arrayBuffer());
    res.writeHead(response.status, { ...Object.fromEntries(response.headers), "content-length": String(out.length) });
    res.end(out);
  } catch (err) {
    console.error(err);
    res.writeHead(500).end();
  }
});
server.listen(Number(process.env.PORT ?? 3999), "127.0.0.1", () => console.log(`plain http server on ${process.env.PORT ?? 3999}, pid ${process.pid}`));
