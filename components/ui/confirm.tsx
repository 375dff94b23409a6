import type { ReactNode } from "react";
import { btn } from "@/components/ui/styles";

const TONES = {
  warning: { box: "border-amber-200 bg-amber-50", text: "text-amber-900", confirm: btn.primary },
  danger: { box: "border-rose-200 bg-rose-50", text: "text-rose-900", confirm: btn.danger },
};

// An inline "are you sure?" for a consequential action: the question, the confirming
// button and Cancel, grouped and named for screen readers.
export function ConfirmPanel(props: {
  label: string;
  question: ReactNode;
  confirmText: string;
  onConfirm: () => void | Promise<void>;
  onCancel: () => void;
  pending: boolean;
  tone?: keyof typeof TONES;
}) {
  const t = TONES[props.tone ?? "warning"];
  return (
    <fieldset aria-label={props.label} className={`space-y-2 rounded-lg border p-3 ${t.box}`}>
      <p className={`text-sm ${t.text}`}>{props.question}</p>
      <div className="flex gap-2">
        <button type="button" className={t.confirm} disabled={props.pending} onClick={props.onConfirm}>
          {props.confirmText}
        </button>
        <button type="button" className={btn.secondary} onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </fieldset>
  );
}
