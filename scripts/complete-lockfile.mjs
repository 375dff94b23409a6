// The npm registry reachable here serves only this platform's prebuilt binaries, so
// `npm install` leaves other platforms' optional packages (@next/swc-darwin-arm64, ...)
// out of package-lock.json, and `npm ci` then rejects the lock as out of sync. This adds
// each missing optional package with its os/cpu constraints: npm skips it on platforms it
// does not fit, and installs it normally where it does. Run after changing dependencies:
//   npm install && node scripts/complete-lockfile.mjs
import { readFileSync, writeFileSync } from "node:fs";

const file = "package-lock.json";
const lock = JSON.parse(readFileSync(file, "utf8"));
const pkgs = lock.packages;

const OS = ["android", "darwin", "freebsd", "linux", "win32", "openbsd", "sunos", "aix", "netbsd"];
const CPU = ["arm64", "x64", "ia32", "arm", "riscv64", "ppc64", "s390x", "loong64", "mips64el", "wasm32"];

function constraints(name) {
  const base = name.split("/").pop();
  const parts = base.split("-");
  const out = {};
  const os = OS.find((o) => parts.includes(o));
  if (os) out.os = [os];
  let cpu = CPU.find((c) => parts.includes(c));
  if (!cpu && parts.includes("gnueabihf")) cpu = "arm";
  if (cpu) out.cpu = [cpu];
  if (parts.includes("musl")) out.libc = ["musl"];
  else if (parts.includes("gnu") || parts.includes("gnueabihf")) out.libc = ["glibc"];
  if (cpu === "wasm32" && !os) out.cpu = ["wasm32"];
  return out;
}

// Where would node resolve `dep` from `fromPath`? Walk up the node_modules chain.
function resolves(fromPath, dep) {
  let p = fromPath;
  for (;;) {
    const candidate = p ? `${p}/node_modules/${dep}` : `node_modules/${dep}`;
    if (pkgs[candidate]) return true;
    if (!p) return false;
    const i = p.lastIndexOf("/node_modules/");
    p = i >= 0 ? p.slice(0, i) : "";
  }
}

let added = 0;
for (const [path, meta] of Object.entries(pkgs)) {
  for (const [dep, range] of Object.entries(meta.optionalDependencies ?? {})) {
    if (resolves(path, dep)) continue;
    const version = String(range).replace(/^[\^~=]/, "");
    if (!/^\d+\.\d+\.\d+/.test(version)) continue; // only exact pins (platform binaries)
    pkgs[`node_modules/${dep}`] = { version, optional: true, ...constraints(dep) };
    added++;
  }
}
lock.packages = Object.fromEntries(Object.entries(pkgs).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))));
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`added ${added} optional platform packages to ${file}`);
