import { parseArgs } from "node:util";
import path from "node:path";
import { existsSync, readFileSync } from "node:fs";

// npm run admin -- create-organization --name N --owner-email E --owner-password P
// npm run admin -- create-api-key --organization ID --scopes a,b
// npm run admin -- create-user --organization ID --email E --password P --role R
// npm run admin -- reset-password --email E   (prints a one-time password-reset link)
// Works with or without a running server: on the embedded database it goes through the
// running server's socket when there is one, else it opens the data folder itself.
const USAGE = `usage:
  npm run admin -- create-organization --name N --owner-email E --owner-password P
  npm run admin -- create-api-key --organization ID --scopes a,b
  npm run admin -- create-user --organization ID --email E --password P --role owner|admin|member|viewer
  npm run admin -- reset-password --email E`;

class UsageError extends Error {}
function fail(msg: string): never {
  throw new UsageError(msg);
}

async function main() {
  const [command, ...rest] = process.argv.slice(2);
  const { values } = parseArgs({
    args: rest,
    options: {
      name: { type: "string" },
      "owner-email": { type: "string" },
      "owner-password": { type: "string" },
      organization: { type: "string" },
      scopes: { type: "string" },
      email: { type: "string" },
      password: { type: "string" },
      role: { type: "string" },
    },
    strict: true,
  });

  let close = async () => {};
  if (!process.env.DATABASE_URL) {
    const dataDir = path.resolve(process.env.DATA_DIR ?? "./.data");
    if (!process.env.APP_SECRET && existsSync(path.join(dataDir, "app-secret"))) {
      process.env.APP_SECRET = readFileSync(path.join(dataDir, "app-secret"), "utf8").trim();
    }
    const { runningEmbeddedDb, startEmbeddedDb } = await import("@/lib/db/embedded");
    const running = await runningEmbeddedDb(dataDir);
    if (running) process.env.DATABASE_URL = running;
    else {
      const e = await startEmbeddedDb(dataDir);
      process.env.DATABASE_URL = e.url;
      close = e.close;
    }
  }
  const { migrate, migrationUrl } = await import("@/lib/db/migrate");
  await migrate(migrationUrl()!);
  const org = await import("@/lib/organizations/create-organization");
  const { isRole, isScope } = await import("@/lib/auth/permissions");
  const { isUuid } = await import("@/lib/ids");

  let out: unknown;
  try {
    switch (command) {
      case "create-organization": {
        const { name, "owner-email": email, "owner-password": password } = values;
        if (!name || !email || !password) fail(USAGE);
        if (password.length < 12) fail("--owner-password must be at least 12 characters");
        const { owner_account, ...created } = await org.createOrganization({ name, ownerEmail: email, ownerPassword: password });
        if (owner_account === "existing")
          console.error(
            `note: the account ${email} exists already and is now this organization's owner; its password is unchanged (--owner-password not used)`,
          );
        out = created;
        break;
      }
      case "create-api-key": {
        const { organization, scopes } = values;
        if (!organization || !scopes) fail(USAGE);
        if (!isUuid(organization)) fail("--organization must be an organization id (UUID)");
        const list = scopes
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean);
        const bad = list.filter((s) => !isScope(s));
        if (bad.length || !list.length) fail(`unknown scopes: ${bad.join(", ") || "(none given)"}`);
        out = await org.createOrganizationApiKey({ organizationId: organization, scopes: list.filter(isScope) });
        break;
      }
      case "create-user": {
        const { organization, email, password, role } = values;
        if (!organization || !email || !password || !role) fail(USAGE);
        if (!isUuid(organization)) fail("--organization must be an organization id (UUID)");
        if (!isRole(role)) fail("--role must be owner, admin, member or viewer");
        if (password.length < 12) fail("--password must be at least 12 characters");
        out = await org.createUser({ organizationId: organization, email, password, role });
        break;
      }
      case "reset-password": {
        const { email } = values;
        if (!email) fail(USAGE);
        const { createResetLink } = await import("@/lib/organizations/create-reset-link");
        out = await createResetLink({ email });
        break;
      }
      default:
        fail(USAGE);
    }
  } finally {
    const { disconnectDb } = await import("@/lib/db/client");
    await disconnectDb();
    await close();
  }
  console.log(JSON.stringify(out));
}

// One line for a person, never a stack trace: our own refusals say what to do; a
// database or other error is reduced to its first line.
async function oneLine(err: unknown): Promise<string> {
  if (err instanceof UsageError) return err.message;
  const { AppError } = await import("@/lib/errors");
  if (err instanceof AppError) return `error: ${err.message}`;
  const { isUniqueViolation } = await import("@/lib/db/errors");
  if (isUniqueViolation(err)) return "error: this already exists (an email, organization or key that must be unique)";
  const first =
    (err instanceof Error ? err.message : String(err))
      .trim()
      .split("\n")
      .find((l) => l.trim() !== "") ?? "unknown error";
  return `error: ${first.trim()}`;
}

main().catch(async (err) => {
  console.error(await oneLine(err));
  process.exit(2);
});
