// `prisma generate` offline: Prisma 7 generates a client without any engine, but the
// CLI wants a schema-engine path to exist; any existing file satisfies it. The generators
// of schema.prisma: the Prisma client (lib/generated/prisma) and the Kysely row types
// (lib/generated/kysely, prisma-kysely, found on PATH as npm scripts find it).
import { spawnSync } from "node:child_process";
import path from "node:path";

const bin = path.resolve("node_modules/.bin");
const env = {
  ...process.env,
  PATH: `${bin}${path.delimiter}${process.env.PATH ?? ""}`,
  PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath,
  PRISMA_HIDE_UPDATE_MESSAGE: "1",
};
const r = spawnSync(process.execPath, ["node_modules/prisma/build/index.js", "generate", "--schema", "prisma/schema.prisma"], { stdio: "inherit", env });
process.exit(r.status ?? 1);
