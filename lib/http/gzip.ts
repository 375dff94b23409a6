import { constants, createGzip, type Gzip, type ZlibReset } from "node:zlib";

// gzip for a body the direct API path holds whole, from a few zlib streams reused (reset after
// each Z_FINISH): a stream per response kept 16 KiB until the next mark-compact.
// docs/architecture.md, "Why: gzip from reused streams". The work runs on libuv's thread pool.

// Streams kept idle: one per response compressing at the same moment, up to this many; more
// are made when needed and closed after their response.
const KEEP = 8;
// (Node.js's zlib streams all have reset(); @types/node declares it for none.)
const idle: (Gzip & ZlibReset)[] = [];

export function gzip(text: string): Promise<Buffer> {
  const z = idle.pop() ?? (createGzip() as Gzip & ZlibReset);
  return new Promise<Buffer>((resolve, reject) => {
    const out: Buffer[] = [];
    // The stream flows: each output chunk is emitted as it is produced, so all of them have
    // arrived when the flush's callback runs.
    const onData = (chunk: Buffer) => out.push(chunk);
    let settled = false;
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      z.off("data", onData);
      z.close();
      reject(err);
    };
    z.on("data", onData);
    z.once("error", fail);
    z.write(text);
    const finished = (err?: Error | null) => {
      if (err) return fail(err);
      if (settled) return;
      z.off("data", onData);
      z.off("error", fail);
      try {
        z.reset();
      } catch (e) {
        return fail(e);
      }
      settled = true;
      if (idle.length < KEEP) idle.push(z);
      else z.close();
      resolve(out.length === 1 ? out[0] : Buffer.concat(out));
    };
    // (the callback gets the write's error, if any; @types/node declares it without one)
    z.flush(constants.Z_FINISH, finished as () => void);
  });
}

// Whether an Accept-Encoding makes gzip the middleware's choice beyond doubt (gzip weighted
// above 0, nothing above it, no "*" or "identity"); anything else is left to the middleware.
const CODING = /^\s*([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*(?:;\s*q\s*=\s*(0(?:\.\d{0,3})?|1(?:\.0{0,3})?)\s*)?$/;
export function prefersGzip(header: string): boolean {
  let gzipWeight = 0;
  let maxOther = 0;
  for (const part of header.split(",")) {
    if (part.trim() === "") continue;
    const m = CODING.exec(part);
    if (!m) return false;
    const coding = m[1].toLowerCase();
    const weight = m[2] === undefined ? 1 : Number(m[2]);
    if (coding === "*" || coding === "identity") return false;
    if (coding === "gzip") gzipWeight = Math.max(gzipWeight, weight);
    else maxOther = Math.max(maxOther, weight);
  }
  return gzipWeight > 0 && gzipWeight >= maxOther;
}
