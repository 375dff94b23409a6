import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "../support/server";

// A PostgreSQL of the fault tests' own (so they can stop and restart it), started like CI
// starts its server: initdb + pg_ctl, as the `postgres` user when running as root (the
// server refuses root). Undefined when no PostgreSQL binaries are installed.
export type OwnPostgres = { adminUrl: string; port: number; stop: () => void; start: () => void; destroy: () => void };

export function postgresBin(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (process.env.PG_BIN && existsSync(path.join(process.env.PG_BIN, "initdb"))) return process.env.PG_BIN;
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).sort((a, b) => Number(a) - Number(b));
  for (const v of versions.reverse()) if (existsSync(path.join(root, v, "bin", "initdb"))) return path.join(root, v, "bin");
  return undefined;
}

export async function startOwnPostgres(): Promise<OwnPostgres | undefined> {
  const bin = postgresBin();
  if (!bin) return undefined;
  const asRoot = process.getuid?.() === 0;
  const run = (cmd: string) => {
    const r = asRoot ? spawnSync("su", ["postgres", "-c", cmd], { encoding: "utf8" }) : spawnSync("sh", ["-c", cmd], { encoding: "utf8" });
    if (r.status !== 0) throw new Error(`${cmd} failed: ${r.stderr || r.stdout}`);
  };
  const dir = mkdtempSync(path.join(os.tmpdir(), "fos-faults-pg-"));
  chmodSync(dir, 0o755);
  if (asRoot) execFileSync("chown", ["postgres", dir]);
  const port = await freePort();
  run(`${bin}/initdb -D ${dir}/data -A trust -U postgres >/dev/null`);
  const start = () => run(`${bin}/pg_ctl -D ${dir}/data -o '-p ${port} -k /tmp -c max_connections=200 -c fsync=off' -l ${dir}/log -w start >/dev/null`);
  const stop = () => run(`${bin}/pg_ctl -D ${dir}/data -m fast -w stop >/dev/null`);
  start();
  return {
    adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start,
    stop,
    destroy: () => {
      try {
        stop();
      } catch {
        /* already stopped */
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
