import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { inject } from "vitest";
import { Api, baseUrl } from "./support/api";
import { signedIn } from "./support/fixtures";
import { TEST_APP_SECRET } from "./support/server";
import { linkParts } from "./support/identity";

function admin(args: string[], env: Record<string, string | undefined>): { code: number; out: string; err: string } {
  const r = spawnSync(process.execPath, ["node_modules/tsx/dist/cli.mjs", "scripts/admin.ts", ...args], {
    env: { ...process.env, ...env, LOG_LEVEL: "silent" },
    encoding: "utf8",
  });
  return { code: r.status ?? 1, out: r.stdout, err: r.stderr };
}

// Each CLI run is a cold start of Node.js and tsx (1-2 s of CPU), a migration check and often an
// argon2 hash: four or five of them took over vitest's 60 s on a loaded 2-core machine (on Citus
// as on PostgreSQL; their statements take milliseconds).
const CLI_TIMEOUT = 180_000;

describe("npm run admin", () => {
  it("creates an organization, an API key and a user against the running server's database", { timeout: CLI_TIMEOUT }, async () => {
    const env = { DATABASE_URL: inject("databaseUrl"), APP_SECRET: TEST_APP_SECRET };
    const email = `cli-${Date.now()}@example.test`;
    const org = admin(["create-organization", "--name", "CLI Org", "--owner-email", email, "--owner-password", "cli-password-123"], env);
    expect(org.code, org.err).toBe(0);
    const created = JSON.parse(org.out.trim());
    expect(created).toEqual({ organization_id: expect.any(String), user_id: expect.any(String), api_key: expect.stringMatching(/^fos_/) });

    // The same owner for a second organization: the account is reused, its password untouched.
    const second = admin(["create-organization", "--name", "CLI Org 2", "--owner-email", email, "--owner-password", "another-password-1"], env);
    expect(second.code, second.err).toBe(0);
    expect(JSON.parse(second.out.trim()).user_id).toBe(created.user_id);
    expect(second.err).toContain("its password is unchanged");
    expect(org.err).not.toContain("password is unchanged");

    const key = admin(["create-api-key", "--organization", created.organization_id, "--scopes", "obligations:read"], env);
    expect(key.code, key.err).toBe(0);
    const { api_key } = JSON.parse(key.out.trim());
    expect(api_key).toMatch(/^fos_/);

    const user = admin(
      ["create-user", "--organization", created.organization_id, "--email", `viewer-${email}`, "--password", "viewer-password-1", "--role", "viewer"],
      env,
    );
    expect(user.code, user.err).toBe(0);
    expect(JSON.parse(user.out.trim())).toEqual({ user_id: expect.any(String) });

    // The owner can sign in over HTTP; the narrow key is a real key of that organization.
    const owner = await signedIn(email, "cli-password-123");
    expect((await owner.get("/session")).body.organization.id).toBe(created.organization_id);
    const viewer = await signedIn(`viewer-${email}`, "viewer-password-1");
    expect((await viewer.get("/session")).body.role).toBe("viewer");
    expect((await new Api(baseUrl(), api_key).get("/session")).status).toBe(401); // keys are refused on GET /session
  });

  it("refuses bad input with a message and a non-zero exit", { timeout: CLI_TIMEOUT }, () => {
    const env = { DATABASE_URL: inject("databaseUrl"), APP_SECRET: TEST_APP_SECRET };
    expect(admin(["create-api-key", "--organization", "not-a-uuid", "--scopes", "obligations:read"], env).code).not.toBe(0);
    const bad = admin(["create-api-key", "--organization", "00000000-0000-4000-8000-000000000000", "--scopes", "obligations:fly"], env);
    expect(bad.code).not.toBe(0);
    expect(bad.err).toMatch(/unknown scopes: obligations:fly/);
    const missing = admin(["create-api-key", "--organization", "00000000-0000-4000-8000-000000000000", "--scopes", "obligations:read"], env);
    expect(missing.code).not.toBe(0);
    expect(missing.err).toMatch(/organization not found/);
    expect(admin(["frobnicate"], env).code).toBe(2);
  });

  it("prints a password-reset link for any account; create-user with an existing email is a one-line error", { timeout: CLI_TIMEOUT }, async () => {
    const env = { DATABASE_URL: inject("databaseUrl"), APP_SECRET: TEST_APP_SECRET };
    const email = `cli-reset-${Date.now()}@example.test`;
    const org = admin(["create-organization", "--name", "Reset Org", "--owner-email", email, "--owner-password", "cli-password-123"], env);
    expect(org.code, org.err).toBe(0);
    const { organization_id } = JSON.parse(org.out.trim());

    const reset = admin(["reset-password", "--email", email.toUpperCase()], env);
    expect(reset.code, reset.err).toBe(0);
    const link = JSON.parse(reset.out.trim());
    expect(link.url).toMatch(/\/password-reset\/[0-9a-f-]{36}#/);
    const { id, token } = linkParts(link.url);
    const done = await new Api(baseUrl()).post(`/password-resets/${id}/complete`, { token, new_password: "set-by-the-person-1" });
    expect(done.status, done.text).toBe(204);
    await expect(signedIn(email, "cli-password-123")).rejects.toThrow(/401/);
    expect((await (await signedIn(email, "set-by-the-person-1")).get("/session")).status).toBe(200);

    for (const [args, message] of [
      [["create-user", "--organization", organization_id, "--email", email, "--password", "another-password-1", "--role", "viewer"], /exists already/],
      [["reset-password", "--email", `nobody-${Date.now()}@example.test`], /no account has the email/],
      [["create-user", "--organization", organization_id, "--bogus", "x"], /bogus/],
    ] as const) {
      const r = admin([...args], env);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.err.trim().split("\n"), r.err).toHaveLength(1);
      expect(r.err).toMatch(message);
      expect(r.err).not.toMatch(/\n\s+at /);
    }
  });

  it("works on an embedded data folder with no server running", () => {
    const dataDir = path.join(mkdtempSync(path.join(os.tmpdir(), "fos-admin-")), "data");
    const env = { DATABASE_URL: undefined, DATA_DIR: dataDir, APP_SECRET: TEST_APP_SECRET };
    const org = admin(["create-organization", "--name", "Offline", "--owner-email", "offline@example.test", "--owner-password", "offline-password-1"], env);
    expect(org.code, org.err).toBe(0);
    const { organization_id } = JSON.parse(org.out.trim());
    // A second process opens the same folder afterwards and sees the organization.
    const key = admin(["create-api-key", "--organization", organization_id, "--scopes", "payments:read,payments:write"], env);
    expect(key.code, key.err).toBe(0);
  }, 180_000); // two cold starts of the embedded database, each migrating a new folder
});
