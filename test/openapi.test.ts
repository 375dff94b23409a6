import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { Api, baseUrl } from "./support/api";

describe("OpenAPI document", () => {
  it("is served as OpenAPI 3.1, version 0.2.2, and passes the Redocly linter", async () => {
    const res = await new Api(baseUrl()).get("/openapi.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    const doc = res.body;
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe("0.2.2");
    const dir = mkdtempSync(path.join(os.tmpdir(), "fos-openapi-"));
    const file = path.join(dir, "openapi.json");
    writeFileSync(file, res.text);
    let out = "";
    try {
      out = execFileSync(process.execPath, ["node_modules/@redocly/cli/bin/cli.js", "lint", file, "--config", "redocly.yaml", "--format", "stylish"], {
        env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
        encoding: "utf8",
        stdio: "pipe",
      });
    } catch (e) {
      const err = e as { stdout?: string; stderr?: string };
      throw new Error(`redocly lint failed:\n${err.stdout}\n${err.stderr}`);
    }
    expect(out).not.toMatch(/\b(error|warning)\s{2,}/);
  }, 240_000); // the Redocly CLI is a heavy child process: on a busy 2-core machine it alone can take a minute

  it("documents every operation with its error envelope and security", async () => {
    const doc = (await new Api(baseUrl()).get("/openapi.json")).body;
    const ops = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([p, item]) => Object.entries(item).map(([m, op]) => ({ p, m, op })));
    expect(ops.length).toBeGreaterThan(0);
    for (const { p, m, op } of ops) {
      expect(op.operationId, `${m} ${p}`).toBeTruthy();
      expect(op.responses["500"], `${m} ${p}`).toBeDefined();
      expect(Array.isArray(op.security), `${m} ${p}`).toBe(true);
    }
    expect(doc.components.schemas.Error.properties.error.required).toEqual(["code", "message"]);
    expect(doc.paths["/session"].post).toBeDefined();
    expect(doc.paths["/session/password"].post.requestBody.content["application/json"].schema.required).toContain("current_password");
  });
});
