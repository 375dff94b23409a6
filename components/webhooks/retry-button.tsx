"use client";

import { useRouter } from "next/navigation";
import { FeedbackMessage } from "@/components/ui/feedback";
import { btn } from "@/components/ui/styles";
import { useMutation } from "@/components/ui/use-mutation";

// POST /webhook-deliveries/{id}/retry: one more attempt for a failed delivery. The button
// stays disabled once requeued, and a network retry reuses the key: one click, one requeue.
export function RetryButton({ deliveryId, label }: { deliveryId: string; label: string }) {
  const router = useRouter();
  const { submit, pending, feedback } = useMutation();
  const done = feedback?.kind === "success";
  return (
    <span className="inline-flex flex-col items-end gap-1">
      <button
        type="button"
        className={btn.small}
        disabled={pending || done}
        onClick={async () => {
          const r = await submit({
            path: `/webhook-deliveries/${deliveryId}/retry`,
            success: "Requeued",
            describe: (e) => (e.code === "delivery_not_failed" ? "It is no longer failed." : undefined),
          });
          // someone else retried it already: show its current state
          if (!r.ok && r.error.code === "delivery_not_failed") router.refresh();
        }}
      >
        Retry<span className="sr-only"> {label}</span>
      </button>
      <FeedbackMessage feedback={feedback} className="px-2 py-1 text-xs" />
    </span>
  );
}
