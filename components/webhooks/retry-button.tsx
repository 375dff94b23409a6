"use client";

import { useRef, useState } from "react";
import { useRouter } from "next/navigation";
import { apiCall } from "@/lib/client/api";
import { describeApiError } from "@/lib/client/errors";
import { btn } from "@/components/ui/styles";

// POST /webhook-deliveries/{id}/retry: one more attempt for a failed delivery. The key is
// kept for this button, so a double click or a network retry is one requeue.
export function RetryButton({ deliveryId, label }: { deliveryId: string; label: string }) {
  const router = useRouter();
  const key = useRef(crypto.randomUUID());
  const [state, setState] = useState<{ kind: "idle" | "pending" | "done" | "error"; text?: string }>({ kind: "idle" });
  return (
    <span className="inline-flex flex-col items-end gap-1">
      <button
        type="button"
        className={btn.small}
        disabled={state.kind === "pending" || state.kind === "done"}
        onClick={async () => {
          setState({ kind: "pending" });
          const r = await apiCall("POST", `/webhook-deliveries/${deliveryId}/retry`, { idempotencyKey: key.current });
          if (r.ok) {
            setState({ kind: "done", text: "Requeued" });
            router.refresh();
          } else {
            setState({ kind: "error", text: r.error.code === "delivery_not_failed" ? "It is no longer failed." : describeApiError(r.error) });
            if (r.error.code === "delivery_not_failed") router.refresh();
          }
        }}
      >
        Retry<span className="sr-only"> {label}</span>
      </button>
      <span role="status" className={`text-xs ${state.kind === "error" ? "text-rose-700" : "text-slate-700"}`}>
        {state.text ?? ""}
      </span>
    </span>
  );
}
