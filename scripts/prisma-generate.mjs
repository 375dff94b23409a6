// `prisma generate` offline: Prisma 7 generates a client without any engine, but the
// CLI wants a schema-engine path to exist; any existing file satisfies it.
import { spawnSync } from "node:child_process";

const env = { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath, PRISMA_HIDE_UPDATE_MESSAGE: "1" };
const r = spawnSync(process.execPath, ["node_modules/prisma/build/index.js", "generate", "--schema", "prisma/schema.prisma"], { stdio: "inherit", env });
process.exit(r.status ?? 1);
