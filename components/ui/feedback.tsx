// The outcome of a form or an action, announced to screen readers: an alert for an error, a
// status for a success. The empty live region stays in the page so the first message is
// announced too.
export type Feedback = { kind: "error" | "success"; text: string } | null;

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
