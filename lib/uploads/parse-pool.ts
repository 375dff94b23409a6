import { existsSync } from "node:fs";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { MAX_EINVOICE_BYTES } from "@/lib/einvoice/read-einvoice";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { logger } from "@/lib/log";
import { type ParseJob, type ParseOutcome, type ParseValue, REFUSAL_CODE, runParseJob } from "@/lib/uploads/parse-job";
import type { WorkerUsage } from "@/lib/uploads/worker";

// Uploaded files are parsed off the request thread: a small pool of worker threads per
// process (UPLOAD_PARSE_WORKERS), each with a heap limit (UPLOAD_PARSE_MEMORY_MB, V8's
// resourceLimits) and each parse with a time limit (parseTimeLimit). A parse over
// either is refused in the envelope (the kind's code: 422, 415 for a document) and its
// worker replaced, while the request thread keeps answering. docs/security.md, "Uploads
// and parsers". The pool hangs on globalThis: both bundles of lib/ share it (architecture.md).

// Built by scripts/build-api.mjs next to the direct API bundle; resolved from the working
// directory, as scripts/server.mjs resolves that bundle (Next.js's bundle finds it too).
export const WORKER_SCRIPT = ".next/api/parse-worker.mjs";

type Result = { outcome: ParseOutcome; usage?: WorkerUsage; bytes?: Uint8Array };
// size and limit are taken before the job's bytes move to the worker (which empties them here).
type Pending = { id: number; job: ParseJob; size: number; limit: number; move: boolean; resolve: (r: Result) => void };
type Slot = { worker: Worker; online: boolean; job?: Pending; timer?: NodeJS.Timeout; watch?: NodeJS.Timeout };
type Pool = { slots: Slot[]; queue: Pending[]; nextId: number; missingLogged?: boolean };

const globalForPool = globalThis as unknown as { __fosParsePool?: Pool };
const pool = (): Pool => (globalForPool.__fosParsePool ??= { slots: [], queue: [], nextId: 1 });

// Parses in a worker and returns the value, or throws the refusal as an AppError. With an
// `owner` (the uploaded file, or the request's body, whose buffer is job.bytes), the bytes are
// moved to the worker rather than copied, and back into owner.bytes with the answer (a
// parse stopped at a limit does not give them back: the request is refused then).
export async function parseUpload<K extends ParseJob["kind"]>(job: ParseJob & { kind: K }, owner?: { bytes: Buffer }): Promise<ParseValue[K]> {
  const started = performance.now();
  const script = path.resolve(process.cwd(), WORKER_SCRIPT);
  const size = job.bytes.byteLength;
  const limit = parseTimeLimit(job);
  let result: Result;
  if (existsSync(script)) {
    const move = owner?.bytes === job.bytes && movable(job.bytes);
    result = await new Promise((resolve) => enqueue(script, { id: pool().nextId++, job, size, limit, move, resolve }));
    if (move && owner && result.bytes) owner.bytes = Buffer.from(result.bytes.buffer, result.bytes.byteOffset, result.bytes.byteLength);
  } else {
    // Without a build (tests of lib/, `next dev`) the parse runs here, unbounded in time.
    const p = pool();
    if (!p.missingLogged) logger().error({ script: WORKER_SCRIPT }, "upload parse worker not built: parsing on the request thread");
    p.missingLogged = true;
    result = { outcome: await runParseJob(job) };
  }
  const { outcome, usage } = result;
  logger().info(
    {
      parse: job.kind,
      bytes: size,
      outcome: outcome.ok ? "ok" : outcome.code,
      ms: Math.round(performance.now() - started),
      worker: usage ?? null,
      limits: { ms: limit, heap_mb: env().UPLOAD_PARSE_MEMORY_MB },
    },
    "upload parsed",
  );
  if (!outcome.ok) throw new AppError(outcome.code, outcome.message);
  return outcome.value as ParseValue[K];
}

function enqueue(script: string, pending: Pending) {
  const p = pool();
  const idle = p.slots.find((s) => !s.job);
  if (idle) return run(idle, pending);
  if (p.slots.length < env().UPLOAD_PARSE_WORKERS) return run(spawn(script), pending);
  p.queue.push(pending);
}

function spawn(script: string): Slot {
  const worker = new Worker(script, {
    execArgv: [],
    resourceLimits: { maxOldGenerationSizeMb: env().UPLOAD_PARSE_MEMORY_MB, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
  });
  worker.unref();
  const slot: Slot = { worker, online: false };
  pool().slots.push(slot);
  worker.on("message", (msg: { ready: true } | { id: number; outcome: ParseOutcome; usage: WorkerUsage; bytes: Uint8Array }) => {
    // A new worker's start (loading the parsers) is not counted against the parse's time:
    // the timer starts when the worker says it is ready (`online` comes before its modules
    // are loaded, which took seconds on a loaded machine).
    if ("ready" in msg) {
      slot.online = true;
      if (slot.job) startTimer(slot, slot.job);
      return;
    }
    const job = slot.job;
    if (!job || job.id !== msg.id) return;
    finish(slot, { outcome: msg.outcome, usage: msg.usage, bytes: msg.bytes }, false);
  });
  // A worker over its heap limit (ERR_WORKER_OUT_OF_MEMORY) or otherwise gone.
  const gone = (why: string) => {
    if (slot.job) finish(slot, refusal(slot.job.job, why), true);
    else retire(slot);
  };
  worker.on("error", (err: Error & { code?: string }) =>
    gone(err.code === "ERR_WORKER_OUT_OF_MEMORY" ? `needs more than ${env().UPLOAD_PARSE_MEMORY_MB} MB of memory to be read` : "could not be read"),
  );
  worker.on("exit", () => gone("could not be read"));
  return slot;
}

function run(slot: Slot, pending: Pending) {
  slot.job = pending;
  const { job } = pending;
  // The bytes move to the worker: their own buffer when the caller gave them up (`move`), else
  // a copy in a buffer of its own (a small body read whole shares its buffer with others).
  const bytes = pending.move ? job.bytes : new Uint8Array(job.bytes);
  slot.worker.postMessage({ id: pending.id, job: { ...job, bytes } }, [bytes.buffer as ArrayBuffer]);
  if (slot.online) startTimer(slot, pending);
}

// A view that is its buffer, whole: moving that buffer takes nothing else with it.
const movable = (b: Uint8Array) => b.buffer instanceof ArrayBuffer && b.byteOffset === 0 && b.byteLength === b.buffer.byteLength && b.byteLength > 0;

// The time a parse may take: the base (UPLOAD_PARSE_TIMEOUT_MS) and a second per MiB of what
// it may read, as the parsers' work is linear in it (a legitimate 10 MiB statement on a busy
// machine needs several seconds; the quadratic shapes are refused by the parsers' own bounds
// first). A PDF may hold an attachment of up to the XML bound, whatever its own size.
export function parseTimeLimit(job: ParseJob): number {
  const pdf = job.kind === "einvoice" && Buffer.from(job.bytes.buffer, job.bytes.byteOffset, Math.min(1024, job.bytes.byteLength)).includes("%PDF-");
  const bytes = pdf ? Math.max(job.bytes.byteLength, MAX_EINVOICE_BYTES) : job.bytes.byteLength;
  return env().UPLOAD_PARSE_TIMEOUT_MS + Math.ceil((bytes / (1024 * 1024)) * MS_PER_MIB);
}
const MS_PER_MIB = 1000;

function startTimer(slot: Slot, pending: Pending) {
  const { job, limit } = pending;
  slot.timer = setTimeout(() => finish(slot, refusal(job, `could not be read within ${(limit / 1000).toFixed(1)} s`), true), limit);
  // The process's V8 flags (--max-old-space-size, scripts/server-flags.ts) override a worker's
  // resourceLimits, so memory is also watched from here: the process's resident memory may
  // grow by the limit per busy worker (plus the file's copies) during a parse, no more.
  const mb = env().UPLOAD_PARSE_MEMORY_MB;
  const base = process.memoryUsage.rss() + 4 * pending.size;
  slot.watch = setInterval(() => {
    const busy = pool().slots.filter((s) => s.job).length;
    if (process.memoryUsage.rss() > base + busy * mb * 1024 * 1024) finish(slot, refusal(job, `needs more than ${mb} MB of memory to be read`), true);
  }, 50);
}

function finish(slot: Slot, result: Result, kill: boolean) {
  const job = slot.job;
  clearTimeout(slot.timer);
  clearInterval(slot.watch);
  slot.timer = undefined;
  slot.watch = undefined;
  slot.job = undefined;
  if (kill) retire(slot);
  job?.resolve(result);
  const next = pool().queue.shift();
  if (!next) return;
  const idle = pool().slots.find((s) => !s.job);
  if (idle) run(idle, next);
  else run(spawn(path.resolve(process.cwd(), WORKER_SCRIPT)), next);
}

function retire(slot: Slot) {
  const p = pool();
  p.slots = p.slots.filter((s) => s !== slot);
  slot.worker.removeAllListeners();
  slot.worker.on("error", () => undefined);
  void slot.worker.terminate();
}

function refusal(job: ParseJob, why: string): { outcome: ParseOutcome } {
  const what = { multipart: "the request body", einvoice: "the e-invoice", statement: "the statement", document: "the file" }[job.kind];
  return { outcome: { ok: false, code: REFUSAL_CODE[job.kind], message: `${what} ${why}` } };
}
