import { type Feedback, FeedbackMessage } from "@/components/ui/feedback";
import { btn } from "@/components/ui/styles";

// The end of a settings form (reminder policy, reconciliation settings): what the choices
// will do, in words that follow them as they change; the save's outcome; the save button, off
// while saving or while a choice is invalid (`ready` false).
export function SettingsSave({
  words,
  feedback,
  pending,
  ready,
  label,
}: {
  words: string[];
  feedback: Feedback;
  pending: boolean;
  ready: boolean;
  label: string;
}) {
  return (
    <>
      <div className="rounded-md bg-slate-50 p-3 text-sm text-slate-700" aria-live="polite">
        <p className="font-medium text-slate-900">What will happen</p>
        {words.map((w) => (
          <p key={w} className="mt-1">
            {w}
          </p>
        ))}
      </div>
      <FeedbackMessage feedback={feedback} />
      <button type="submit" className={btn.primary} disabled={pending || !ready}>
        {label}
      </button>
    </>
  );
}
