"use client";

import { useRef } from "react";

// One Idempotency-Key per submission: a retry of the same body after a network failure
// reuses the key (so the server applies it at most once); any other body, or a retry
// after the server answered, gets a fresh key.
export function useSubmissionKey() {
  const last = useRef<{ fingerprint: string; key: string } | null>(null);
  return {
    keyFor(body: unknown): string {
      const fingerprint = body instanceof FormData ? `form:${crypto.randomUUID()}` : JSON.stringify(body ?? null);
      if (last.current?.fingerprint !== fingerprint) last.current = { fingerprint, key: crypto.randomUUID() };
      return last.current.key;
    },
    // after an answer from the server (success or error): the next submission is new
    settle(): void {
      last.current = null;
    },
  };
}
