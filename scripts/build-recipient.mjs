// Builds the hosted payer page's own assets (/r/{request} is served by a route handler, not
// an App Router page, so it ships no Next.js client runtime):
//  - the client island bundled by esbuild with code splitting, every file named by its
//    content hash: a tiny entry (components/recipient/client-entry.ts) that starts the link
//    exchange at once and imports the rendering chunk (components/recipient/mount.tsx; the
//    HTML modulepreloads it and its static imports, so they download in parallel with the
//    entry), and the lazily loaded chunks (forms, documents, messages; the QR encoder);
//  - React replaced by Preact (preact/compat, the React API on a ~4 kB runtime) for this
//    bundle only: `react`, `react-dom` and their subpaths are aliased (see "Speed" in
//    docs/recipient-portal.md);
//  - the page's stylesheet (components/recipient/page.css) compiled by Tailwind from the
//    page's own sources and minified, inlined into the HTML by the server.
// Output: .next/recipient/ (gitignored; written after `next build`, which empties .next/):
// assets/*.js and manifest.json { entry, preload, account, accountPreload, css } read by
// app/r/[request]/route.ts and app/a/[account]/route.ts.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import * as esbuild from "esbuild";
import postcss from "postcss";
import tailwind from "@tailwindcss/postcss";

const OUT = path.resolve(".next/recipient");
const ASSETS = path.join(OUT, "assets");
rmSync(OUT, { recursive: true, force: true });
mkdirSync(ASSETS, { recursive: true });

const result = await esbuild.build({
  entryPoints: { portal: "components/recipient/client-entry.ts", account: "components/recipient/account-entry.ts" },
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "browser",
  target: ["es2020"],
  minify: true,
  jsx: "automatic",
  alias: { react: "preact/compat", "react-dom": "preact/compat" },
  define: { "process.env.NODE_ENV": '"production"' },
  entryNames: "[name]-[hash]",
  chunkNames: "chunk-[hash]",
  outdir: ASSETS,
  metafile: true,
  logLevel: "warning",
});

const outputs = result.metafile.outputs;
const rel = (p) => path.basename(p);
const entry = Object.keys(outputs).find((p) => outputs[p].entryPoint === "components/recipient/client-entry.ts");
// the account page /a/{account} (app/a/[account]/route.ts): its own entry, chunks shared with the payer page
const accountEntry = Object.keys(outputs).find((p) => outputs[p].entryPoint === "components/recipient/account-entry.ts");
// preloaded with the entry so they do not wait for it: the entry's static imports and the
// chunks it imports dynamically at once (the rendering chunk), each with its static imports,
// transitively. The chunks the rendering chunk loads lazily are not preloaded.
const preloadsOf = (start) => {
  const out = [];
  const add = (p) => {
    if (out.includes(rel(p))) return;
    out.push(rel(p));
    visit(p);
  };
  const visit = (p) => {
    for (const i of outputs[p].imports) if (i.kind === "import-statement") add(i.path);
  };
  visit(start);
  for (const i of outputs[start].imports) if (i.kind === "dynamic-import") add(i.path);
  return out;
};
const preload = preloadsOf(entry);

const source = "components/recipient/page.css";
const css = await postcss([tailwind({ base: path.resolve("."), optimize: { minify: true } })]).process(readFileSync(source, "utf8"), { from: source });

const manifest = {
  entry: rel(entry),
  account: rel(accountEntry),
  preload,
  accountPreload: preloadsOf(accountEntry),
  css: css.css,
  cssHash: createHash("sha256").update(css.css).digest("hex").slice(0, 16),
};
writeFileSync(path.join(OUT, "manifest.json"), JSON.stringify(manifest));
const size = (f) => readFileSync(path.join(ASSETS, f)).length;
console.log(
  `payer page: ${manifest.entry} ${size(manifest.entry)} B + ${preload.length} preloaded chunk(s) ${preload.reduce((n, f) => n + size(f), 0)} B, ` +
    `${Object.keys(outputs).length} file(s), CSS ${css.css.length} B`,
);
console.log(
  `account page: ${manifest.account} ${size(manifest.account)} B + ${manifest.accountPreload.length} preloaded chunk(s) ${manifest.accountPreload.reduce((n, f) => n + size(f), 0)} B`,
);
