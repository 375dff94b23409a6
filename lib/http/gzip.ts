import { constants, createGzip, type Gzip, type ZlibReset } from "node:zlib";

// gzip for a response body the server holds whole (the direct API path, lib/http/api-server.ts),
// from a few zlib streams kept for reuse: each body is written, finished with Z_FINISH (a
// complete gzip member: header, deflate data, CRC-32 and length) and the stream is reset for
// the next one. A new zlib stream per response (what the compression middleware makes, or
// zlib.gzipSync) outlived its response, with its 16 KiB output buffer, until the next
// mark-compact: under load those buffers used up the heap's room and brought a mark-compact
// every ~2.5 s (measured: docs/benchmarks.md, step 18).
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
