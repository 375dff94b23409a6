import { getHeapStatistics } from "node:v8";
import { parentPort } from "node:worker_threads";
import { type ParseJob, runParseJob } from "@/lib/uploads/parse-job";
import type { MultipartEntries } from "@/lib/uploads/read-multipart";

// The entry of a parse worker thread (built to .next/api/parse-worker.mjs by
// scripts/build-api.mjs): one job at a time, answered with its outcome and what it cost,
// measured here in the worker (heap_bytes: the worker's committed heap after the parse, a
// high-water mark, as the heap shrinks only at later collections; it counts the young
// generation and code besides the old generation that resourceLimits bounds).
export type WorkerUsage = { ms: number; heap_bytes: number; external_bytes: number };

// The job's bytes go back with the answer, moved (not copied) as they came, and so do the
// files a multipart body held.
parentPort?.on("message", async (msg: { id: number; job: ParseJob }) => {
  const started = performance.now();
  const outcome = await runParseJob(msg.job);
  const heap = getHeapStatistics();
  const usage: WorkerUsage = {
    ms: Math.round(performance.now() - started),
    heap_bytes: heap.total_heap_size,
    external_bytes: heap.external_memory,
  };
  const moved = new Set<ArrayBuffer>([msg.job.bytes.buffer as ArrayBuffer]);
  if (outcome.ok && msg.job.kind === "multipart") {
    for (const [, v] of outcome.value as MultipartEntries) if (typeof v !== "string") moved.add(v.bytes.buffer as ArrayBuffer);
  }
  parentPort?.postMessage({ id: msg.id, outcome, usage, bytes: msg.job.bytes }, [...moved]);
});

// Its modules are loaded: the pool starts a parse's time limit from here.
parentPort?.postMessage({ ready: true });
