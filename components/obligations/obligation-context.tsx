"use client";

import { createContext, useCallback, useContext, useEffect, useState } from "react";
import { useRouter } from "next/navigation";
import { apiCall, type ApiError } from "@/lib/client/api";
import { describeApiError, refreshAfter } from "@/lib/client/errors";
import { useSubmissionKey } from "@/lib/client/submission-key";

// The obligation the detail page shows, as the islands need it: its id and the version
// they send as `expected_version`. A successful mutation moves the version on at once
// (so a second action right after the first does not conflict with ourselves) and the
// server components are refreshed; a 409 tells the user and re-reads the page.
type Ctx = { obligationId: string; version: number; canWrite: boolean; setVersion: (v: number) => void };

const ObligationCtx = createContext<Ctx | null>(null);

export function ObligationProvider(props: { obligationId: string; version: number; canWrite: boolean; children: React.ReactNode }) {
  const [version, setVersion] = useState(props.version);
  // the server's version wins whenever the page is re-rendered with newer data
  useEffect(() => setVersion(props.version), [props.version]);
  return (
    <ObligationCtx.Provider value={{ obligationId: props.obligationId, version, canWrite: props.canWrite, setVersion }}>{props.children}</ObligationCtx.Provider>
  );
}

export function useObligation(): Ctx {
  const c = useContext(ObligationCtx);
  if (!c) throw new Error("useObligation outside ObligationProvider");
  return c;
}

export type Feedback = { kind: "error" | "success"; text: string } | null;

// The mutation result (invoice.version), or the obligation-context link (version).
type MutationResult = { invoice?: { version: number }; version?: number; payment_request?: { hosted_url: string; expires_at: string } };

// Runs one mutation of the obligation: builds the body with the current version, keeps
// the Idempotency-Key across a network retry of the same body, and turns the answer into
// feedback for the user.
export function useObligationMutation() {
  const router = useRouter();
  const { obligationId, version, setVersion } = useObligation();
  const [pending, setPending] = useState(false);
  const [feedback, setFeedback] = useState<Feedback>(null);
  const keys = useSubmissionKey();

  const run = useCallback(
    async (
      path: string,
      build: (expectedVersion: number) => { body?: unknown; form?: FormData },
      success: string,
    ): Promise<{ ok: true; data: MutationResult } | { ok: false; error: ApiError }> => {
      setPending(true);
      setFeedback(null);
      const payload = build(version);
      const r = await apiCall<MutationResult>("POST", `/obligations/${obligationId}${path}`, {
        ...payload,
        idempotencyKey: keys.keyFor(payload.form ?? payload.body),
      });
      if (r.ok || r.error.code !== "network_error") keys.settle();
      setPending(false);
      if (r.ok) {
        const v = r.data.invoice?.version ?? r.data.version;
        if (typeof v === "number") setVersion(v);
        setFeedback({ kind: "success", text: success });
        router.refresh();
      } else {
        setFeedback({ kind: "error", text: describeApiError(r.error) });
        if (r.error.code === "unauthenticated") router.push("/login");
        else if (refreshAfter(r.error)) router.refresh();
      }
      return r;
    },
    [obligationId, version, setVersion, router, keys],
  );

  return { run, pending, feedback, setFeedback };
}

// The outcome of an action, announced to screen readers.
export function FeedbackMessage({ feedback, className = "" }: { feedback: Feedback; className?: string }) {
  if (!feedback) return <div aria-live="polite" className="sr-only" />;
  return (
    <p
      role={feedback.kind === "error" ? "alert" : "status"}
      className={`rounded-md px-3 py-2 text-sm ${feedback.kind === "error" ? "bg-rose-50 text-rose-800" : "bg-emerald-50 text-emerald-800"} ${className}`}
    >
      {feedback.text}
    </p>
  );
}
