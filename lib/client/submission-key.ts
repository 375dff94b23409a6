"use client";

import { useMemo, useRef } from "react";
import { newIdempotencyKey } from "@/lib/client/idempotency-key";

// What makes two submissions "the same": the JSON body, or for a multipart form its fields
// and the files' names, sizes and dates (the bytes themselves are not read).
function fingerprintOf(body: unknown): string {
  if (body instanceof FormData) {
    const parts: string[] = [];
    body.forEach((v, k) => {
      parts.push(`${k}=${typeof v === "string" ? v : `file:${v.name}:${v.size}:${v.lastModified}`}`);
    });
    return `form:${JSON.stringify(parts)}`;
  }
  return JSON.stringify(body ?? null);
}

// One Idempotency-Key per logical submission: a retry of the same body after a network
// failure reuses the key (so the server applies it at most once); any other body, or a
// retry after the server answered, gets a fresh key.
export function useSubmissionKey() {
  const last = useRef<{ fingerprint: string; key: string } | null>(null);
  // stable across renders, so callbacks that use it need not be re-created
  return useMemo(
    () => ({
      // `scope`: what else makes it another submission (e.g. the method and path)
      keyFor(body: unknown, scope = ""): string {
        const fingerprint = `${scope}\n${fingerprintOf(body)}`;
        if (last.current?.fingerprint !== fingerprint) last.current = { fingerprint, key: newIdempotencyKey() };
        return last.current.key;
      },
      // after an answer from the server (success or error): the next submission is new
      settle(): void {
        last.current = null;
      },
    }),
    [],
  );
}
