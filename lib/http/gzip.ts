import { constants, createGzip, type Gzip, type ZlibReset } from "node:zlib";

// gzip for a response body the server holds whole (the direct API path, lib/http/api-server.ts),
// from a few zlib streams kept for reuse: each body is written, finished with Z_FINISH (a
// complete gzip member: header, deflate data, CRC-32 and length) and the stream is reset for
// the next one. A new zlib stream per response (what the compression middleware makes, or
// zlib.gzipSync) lives on until the next mark-compact: its native handle keeps the stream and
// its 16 KiB output buffer alive through every scavenge, so under load those buffers filled
// the heap's room and forced a mark-compact every ~2.5 s (docs/benchmarks.md, step 18).
// The compression itself runs on libuv's thread pool, as the middleware's does.

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
    let failed = false;
    const onError = (err: Error) => {
      failed = true;
      z.off("data", onData);
      z.close();
      reject(err);
    };
    z.on("data", onData);
    z.once("error", onError);
    z.write(text);
    z.flush(constants.Z_FINISH, () => {
      if (failed) return;
      z.off("data", onData);
      z.off("error", onError);
      z.reset();
      if (idle.length < KEEP) idle.push(z);
      else z.close();
      resolve(out.length === 1 ? out[0] : Buffer.concat(out));
    });
  });
}

// Whether an Accept-Encoding header makes gzip the compression middleware's choice beyond
// doubt: gzip listed with a weight above 0, no coding weighted above it, and no "*" or
// "identity" entry (whose order and weight the middleware's negotiation weighs in ways not
// worth repeating here). A "deflate" of the same weight does not matter: the middleware
// prefers gzip to it. Anything else (false) is left to the middleware itself.
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
