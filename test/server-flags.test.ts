import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { serverNodeFlags, serverProcessEnv } from "../scripts/server-flags";

// npm start gives the server V8 flags; a flag the runtime does not know stops it at once
// (Node.js 24 has no --interrupt-budget), so the tier-up flags go only to a runtime that
// accepts them. The runtimes here are this Node.js and a stand-in that refuses that flag.
describe("the server's V8 flags", () => {
  it("gives this runtime flags it accepts", async () => {
    const flags = serverNodeFlags(process.execPath, undefined);
    expect(flags).toContain("--max-old-space-size=1024");
    expect(flags).toContain("--max-semi-space-size=16");
    expect(flags).toContain("--heap-growing-percent=50");
    const { spawnSync } = await import("node:child_process");
    expect(spawnSync(process.execPath, [...flags, "-e", ""]).status).toBe(0);
  });

  it("keeps only the heap flags for a runtime that refuses a tier-up flag", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "fos-flags-"));
    const node = path.join(dir, "node");
    writeFileSync(
      node,
      `#!/bin/sh\nfor a in "$@"; do case "$a" in --interrupt-budget=*) echo "bad option: $a" >&2; exit 9;; esac; done\nexec "${process.execPath}" "$@"\n`,
    );
    chmodSync(node, 0o755);
    expect(serverNodeFlags(node, undefined)).toEqual(["--max-old-space-size=1024", "--max-semi-space-size=16", "--heap-growing-percent=50"]);
  });

  it("takes SERVER_NODE_FLAGS as given", () => {
    expect(serverNodeFlags(process.execPath, " --max-old-space-size=512  --stack-size=900 ")).toEqual(["--max-old-space-size=512", "--stack-size=900"]);
    expect(serverNodeFlags(process.execPath, "")).toEqual([]);
  });
});

describe("the server's environment", () => {
  it("limits glibc to two malloc arenas unless MALLOC_ARENA_MAX is given", () => {
    expect(serverProcessEnv(undefined)).toEqual({ MALLOC_ARENA_MAX: "2" });
    expect(serverProcessEnv("")).toEqual({ MALLOC_ARENA_MAX: "2" });
    expect(serverProcessEnv("8")).toEqual({ MALLOC_ARENA_MAX: "8" });
  });
});
