"use client";

import { useMutation } from "@/components/ui/use-mutation";
import { btn } from "@/components/ui/styles";
import { FeedbackMessage } from "@/components/ui/feedback";

// POST /inbox/{id}/read, then the page (and the navigation's count) is read again.
export function MarkReadButton({ itemId, label }: { itemId: string; label: string }) {
  const { submit, pending, feedback } = useMutation();
  return (
    <div>
      <button
        type="button"
        className={btn.secondary}
        disabled={pending}
        aria-label={`Mark as read: ${label}`}
        onClick={() => void submit({ path: `/inbox/${itemId}/read` })}
      >
        Mark as read
      </button>
      {feedback?.kind === "error" && <FeedbackMessage feedback={feedback} />}
    </div>
  );
}
