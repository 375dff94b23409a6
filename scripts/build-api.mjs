// Builds the direct API bundle (docs/architecture.md, "Serving"): every route file of
// app/api/v1 (the same modules Next.js builds) with lib/http/api-server.ts's dispatcher and
// the in-process workers (lib/maintenance/workers.ts), in one ES module that
// scripts/server.mjs loads next to Next.js's request handler.
// Packages stay outside the bundle (they load from node_modules, as Next.js's server loads
// them); the `@/` paths resolve through tsconfig.json.
// Output: .next/api/server.mjs (gitignored; written after `next build`, which empties .next/).
// Also the upload parse worker (lib/uploads/worker.ts -> .next/api/parse-worker.mjs): the
// thread that reads uploaded files for both bundles (lib/uploads/parse-pool.ts finds it there).
import { readdirSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import * as esbuild from "esbuild";

const ROOT = "app/api/v1";
const OUT = path.resolve(".next/api");

// [URL pattern, file] of every route.ts under app/api/v1, in a stable order
function routeFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) out.push(...routeFiles(p));
    else if (name === "route.ts") out.push([`/${path.relative("app", dir).split(path.sep).join("/")}`, p]);
  }
  return out;
}
const routes = routeFiles(ROOT);

const entry = [
  'import { apiDispatcher } from "./lib/http/api-server.ts";',
  'import { SECURITY_HEADERS } from "./lib/http/security-headers.mjs";',
  'export { startWorkers } from "./lib/maintenance/workers.ts";',
  ...routes.map(([, file], i) => `import * as r${i} from "./${file.split(path.sep).join("/")}";`),
  "export const ROUTES = [",
  ...routes.map(([pattern], i) => `  [${JSON.stringify(pattern)}, r${i}],`),
  "];",
  "export const createDispatcher = ({ port, compress }) => apiDispatcher({ routes: ROUTES, headers: SECURITY_HEADERS, port, compress });",
].join("\n");

rmSync(OUT, { recursive: true, force: true });
const result = await esbuild.build({
  stdin: { contents: entry, resolveDir: process.cwd(), sourcefile: "api-entry.ts", loader: "ts" },
  bundle: true,
  platform: "node",
  format: "esm",
  target: ["node20"],
  packages: "external",
  tsconfig: "tsconfig.json",
  define: { "process.env.NODE_ENV": '"production"' },
  outfile: path.join(OUT, "server.mjs"),
  sourcemap: true,
  metafile: true,
  logLevel: "warning",
  // The direct path calls a handler with a plain Request, outside Next.js's request context:
  // next/headers, next/server and the like would not work there (docs/architecture.md).
  plugins: [
    {
      name: "no-next-imports",
      setup(build) {
        build.onResolve({ filter: /^next(\/|$)/ }, (args) => ({
          errors: [{ text: `${args.importer} imports ${args.path}: route files of app/api/v1 and what they import must not use Next.js APIs` }],
        }));
      },
    },
  ],
});
await esbuild.build({
  entryPoints: ["lib/uploads/worker.ts"],
  bundle: true,
  platform: "node",
  format: "esm",
  target: ["node20"],
  packages: "external",
  tsconfig: "tsconfig.json",
  define: { "process.env.NODE_ENV": '"production"' },
  outfile: path.join(OUT, "parse-worker.mjs"),
  sourcemap: true,
  logLevel: "warning",
});
const bytes = Object.values(result.metafile.outputs).reduce((n, o) => n + o.bytes, 0);
console.log(`direct API: ${routes.length} route files, .next/api/server.mjs ${Math.round(bytes / 1024)} kB (with source map)`);
