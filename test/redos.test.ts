import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import * as acorn from "acorn";
import * as esbuild from "esbuild";
import { describe, expect, it } from "vitest";

// Every regular expression of the service's source is linear: collected from lib/, app/ and
// components/ (literals and `new RegExp` with a constant pattern; a pattern built at run time
// is refused, since no checker can see it) and judged by recheck's pure-JavaScript backend.
// docs/security.md, "Uploads and parsers".
process.env.RECHECK_BACKEND = "pure";
const ROOTS = ["lib", "app", "components"];
// The same verdicts on every run and machine: a fixed seed, and the fuzzer's phases bounded
// by steps instead of milliseconds (recheck's time limits make its verdicts depend on the
// machine's load); the overall timeout only turns a pattern too slow to judge into a failure.
const PARAMS = {
  randomSeed: 1,
  timeout: 60_000,
  incubationTimeout: null,
  seedingTimeout: null,
  attackTimeout: null,
  attackLimit: 100_000_000,
};

type Found = { file: string; line: number; source: string; flags: string };

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) {
      if (name !== "generated" && name !== "node_modules") sourceFiles(p, out);
    } else if (/\.(ts|tsx|mjs)$/.test(name) && !name.endsWith(".test.ts") && !name.endsWith(".d.ts")) out.push(p);
  }
  return out;
}

type Node = { type: string; start: number; [k: string]: unknown };
const isNode = (v: unknown): v is Node => typeof v === "object" && v !== null && typeof (v as Node).type === "string";

function collect(): { found: Found[]; dynamic: string[] } {
  const found: Found[] = [];
  const dynamic: string[] = [];
  for (const file of ROOTS.flatMap((r) => sourceFiles(r))) {
    const js = esbuild.transformSync(readFileSync(file, "utf8"), { loader: file.endsWith("x") ? "tsx" : "ts", target: "esnext", jsx: "automatic" }).code;
    const lineOf = (pos: number) => js.slice(0, pos).split("\n").length;
    const constant = (n: unknown): string | undefined => {
      if (!isNode(n)) return undefined;
      if (n.type === "Literal" && typeof n.value === "string") return n.value;
      const t = n as unknown as { type: string; expressions?: unknown[]; quasis?: { value: { cooked: string } }[] };
      if (t.type === "TemplateLiteral" && t.expressions?.length === 0) return t.quasis?.[0].value.cooked;
      return undefined;
    };
    const visit = (n: Node) => {
      if (n.type === "Literal" && n.regex) {
        const { pattern, flags } = n.regex as { pattern: string; flags: string };
        found.push({ file, line: lineOf(n.start), source: pattern, flags });
      }
      if ((n.type === "NewExpression" || n.type === "CallExpression") && isNode(n.callee) && n.callee.type === "Identifier" && n.callee.name === "RegExp") {
        const args = n.arguments as unknown[];
        const source = constant(args[0]);
        const flags = args.length > 1 ? constant(args[1]) : "";
        if (source === undefined || flags === undefined) dynamic.push(`${file} (line ${lineOf(n.start)} of its JavaScript)`);
        else found.push({ file, line: lineOf(n.start), source, flags });
      }
      for (const v of Object.values(n)) {
        if (Array.isArray(v)) for (const c of v) isNode(c) && visit(c);
        else if (isNode(v)) visit(v);
      }
    };
    visit(acorn.parse(js, { ecmaVersion: "latest", sourceType: "module" }) as unknown as Node);
  }
  return { found, dynamic };
}

describe("regular expressions", () => {
  const { found, dynamic } = collect();

  it("are all written as constants", () => {
    expect(found.length).toBeGreaterThan(100);
    expect(dynamic, "a RegExp built at run time cannot be checked: write it as a literal").toEqual([]);
  });

  it("are all linear by recheck", { timeout: 300_000 }, async () => {
    const { checkSync } = await import("recheck");
    const unsafe: string[] = [];
    const seen = new Set<string>();
    for (const r of found) {
      const key = `/${r.source}/${r.flags}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const d = checkSync(r.source, r.flags, PARAMS);
      if (d.status !== "safe") {
        const detail = d.status === "vulnerable" ? `${d.complexity.type}, attack ${d.attack.pattern.slice(0, 80)}` : d.status;
        unsafe.push(`${r.file}:${r.line} ${key} (${detail})`);
      }
    }
    expect(unsafe).toEqual([]);
  });
});
