"use client";

import { useRouter } from "next/navigation";
import { FeedbackMessage } from "@/components/ui/feedback";
import { btn } from "@/components/ui/styles";
import { useMutation } from "@/components/ui/use-mutation";
import { useAnnounce } from "@/components/reconciliation/announcer";

// POST /payments/{id}/suggestions/{suggestion}/accept: all allocations of the suggestion at
// once. A 409 (an obligation moved, or the suggestion is no longer among the current ones)
// changes nothing; the page is re-read so the row shows what is true now.
export function AcceptSuggestionButton({ paymentId, suggestionId, description }: { paymentId: string; suggestionId: string; description: string }) {
  const router = useRouter();
  const { submit, pending, feedback } = useMutation();
  const announce = useAnnounce();
  return (
    <div className="space-y-2">
      <button
        type="button"
        className={btn.primary}
        disabled={pending}
        aria-label={`Accept: ${description}`}
        onClick={async () => {
          const r = await submit({
            path: `/payments/${paymentId}/suggestions/${encodeURIComponent(suggestionId)}/accept`,
            body: {},
            // Inside an Announcer the confirmation is said above the list, where it survives the row.
            success: announce ? undefined : "Accepted: the allocation is recorded.",
            describe: (e) =>
              e.code === "suggestion_stale"
                ? "This suggestion is no longer current: the payment or an obligation changed. The row now shows the latest state; nothing was allocated."
                : e.code === "version_conflict"
                  ? "An obligation changed since the suggestion was made. The row now shows the latest state; nothing was allocated."
                  : undefined,
          });
          if (r.ok) announce?.(`Accepted: ${description}.`);
          else announce?.("");
          if (!r.ok && r.error.code === "suggestion_stale") router.refresh();
        }}
      >
        {pending ? "Accepting…" : "Accept"}
      </button>
      <FeedbackMessage feedback={feedback} />
    </div>
  );
}
