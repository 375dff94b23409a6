import { createHash } from "node:crypto";
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";

// `npm start` and `npm test` build only when the sources changed since the last build.
const INPUTS = [
  "app",
  "components",
  "lib",
  "public",
  "instrumentation.ts",
  "proxy.ts",
  "prisma/schema.prisma",
  "next.config.mjs",
  "postcss.config.mjs",
  "scripts/build-recipient.mjs",
  "scripts/build-api.mjs",
  "tsconfig.json",
  "package-lock.json",
];
const SKIP = new Set(["node_modules", ".next", "generated"]);

function walk(p: string, out: string[]) {
  if (!existsSync(p)) return;
  const st = statSync(p);
  if (st.isDirectory()) {
    for (const name of readdirSync(p).sort()) if (!SKIP.has(name)) walk(path.join(p, name), out);
  } else out.push(p);
}

export function sourceHash(): string {
  const files: string[] = [];
  for (const i of INPUTS) walk(i, files);
  const h = createHash("sha256");
  for (const f of files) h.update(f).update("\0").update(readFileSync(f)).update("\0");
  return h.digest("hex");
}

function run(cmd: string, args: string[]) {
  const r = spawnSync(cmd, args, { stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
  if (r.status !== 0) {
    console.error(`${cmd} ${args.join(" ")} failed`);
    process.exit(r.status ?? 1);
  }
}

export function ensureGenerated(): void {
  const schemaHash = createHash("sha256").update(readFileSync("prisma/schema.prisma")).digest("hex");
  const marker = "lib/generated/prisma/.schema-hash";
  if (existsSync(marker) && readFileSync(marker, "utf8") === schemaHash) return;
  run(process.execPath, ["scripts/prisma-generate.mjs"]);
  writeFileSync(marker, schemaHash);
}

export function ensureBuilt(): void {
  ensureGenerated();
  const marker = ".next/fos-source-hash";
  const hash = sourceHash();
  const built =
    existsSync(".next/BUILD_ID") &&
    existsSync(".next/recipient/manifest.json") &&
    existsSync(".next/api/server.mjs") &&
    existsSync(".next/api/parse-worker.mjs");
  if (built && existsSync(marker) && readFileSync(marker, "utf8") === hash) return;
  console.log("Building the app (sources changed since the last build)...");
  run(process.execPath, ["node_modules/next/dist/bin/next", "build"]);
  // the payer page's own bundle and stylesheet (into .next/recipient, which next build empties)
  run(process.execPath, ["scripts/build-recipient.mjs"]);
  // the direct API bundle (scripts/server.mjs loads it)
  run(process.execPath, ["scripts/build-api.mjs"]);
  writeFileSync(marker, hash);
}
