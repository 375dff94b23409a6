"use client";

import { useRouter } from "next/navigation";
import { FeedbackMessage } from "@/components/ui/feedback";
import { btn } from "@/components/ui/styles";
import { useMutation } from "@/components/ui/use-mutation";
import { useAnnounce } from "@/components/reconciliation/announcer";

// POST /payments/{id}/suggestions/{suggestion}/reject: this allocation set is not suggested
// for this payment again (docs/reconciliation.md); the page is re-read without it.
export function RejectSuggestionButton({ paymentId, suggestionId, description }: { paymentId: string; suggestionId: string; description: string }) {
  const router = useRouter();
  const { submit, pending, feedback } = useMutation();
  const announce = useAnnounce();
  return (
    <div className="space-y-2">
      <button
        type="button"
        className={btn.secondary}
        disabled={pending}
        aria-label={`Not this one: ${description}`}
        onClick={async () => {
          const r = await submit({
            path: `/payments/${paymentId}/suggestions/${encodeURIComponent(suggestionId)}/reject`,
            body: {},
            success: announce ? undefined : "Rejected: this suggestion will not be shown for this payment again.",
            describe: (e) => (e.code === "suggestion_stale" ? "This suggestion is no longer current: the page now shows the latest suggestions." : undefined),
          });
          if (r.ok) announce?.(`Rejected: ${description}. It will not be suggested for this payment again.`);
          router.refresh();
        }}
      >
        {pending ? "Rejecting…" : "Not this one"}
      </button>
      <FeedbackMessage feedback={feedback} />
    </div>
  );
}
