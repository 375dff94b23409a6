"use client";

import { useCallback, useState } from "react";
import { useRouter } from "next/navigation";
import { apiCall, type ApiError } from "@/lib/client/api";
import { describeApiError, refreshAfter } from "@/lib/client/errors";
import { useSubmissionKey } from "@/lib/client/submission-key";
import type { Feedback } from "@/components/ui/feedback";

export type MutationResult<T> = { ok: true; data: T } | { ok: false; error: ApiError };

export type MutationRequest<T> = {
  path: string; // under /api/v1
  method?: "POST" | "PUT" | "PATCH" | "DELETE";
  body?: unknown;
  form?: FormData;
  // the message on success (none: the caller navigates away or shows its own)
  success?: string | ((data: T) => string | null);
  // a wording of its own for some error codes; undefined falls back to describeApiError
  describe?: (error: ApiError) => string | undefined;
  // re-render the server components after a success (default true)
  refresh?: boolean;
  // a 401 means the session ended: go to /login (default true; the sign-in form says so itself)
  signInOn401?: boolean;
};

// The submit flow of every dashboard form: one Idempotency-Key per logical submission
// (reused when the same body is retried after a network failure, fresh once the server has
// answered), pending and feedback state, the session's end sends to /login, a 409 or a gone
// resource re-reads the page, a 403/422 says why, and a success refreshes the server data.
export function useMutation() {
  const router = useRouter();
  const keys = useSubmissionKey();
  const [pending, setPending] = useState(false);
  const [feedback, setFeedback] = useState<Feedback>(null);

  const submit = useCallback(
    async <T = unknown>(req: MutationRequest<T>): Promise<MutationResult<T>> => {
      setPending(true);
      setFeedback(null);
      const r = await apiCall<T>(req.method ?? "POST", req.path, {
        body: req.body,
        form: req.form,
        idempotencyKey: keys.keyFor(req.form ?? req.body, `${req.method ?? "POST"} ${req.path}`),
      });
      if (r.ok || r.error.code !== "network_error") keys.settle();
      setPending(false);
      if (r.ok) {
        const text = typeof req.success === "function" ? req.success(r.data) : req.success;
        if (text) setFeedback({ kind: "success", text });
        if (req.refresh !== false) router.refresh();
      } else {
        setFeedback({ kind: "error", text: req.describe?.(r.error) ?? describeApiError(r.error) });
        if (r.error.code === "unauthenticated" && req.signInOn401 !== false) router.push("/login");
        else if (refreshAfter(r.error)) router.refresh();
      }
      return r;
    },
    [keys, router],
  );

  return { submit, pending, feedback, setFeedback };
}
