"use client";

import { useId, useRef, useState } from "react";
import { btn } from "@/components/ui/styles";

// A destructive action behind a confirmation. The native modal <dialog> keeps focus inside
// (the rest of the page is inert), Escape closes it, and focus returns to the trigger.
export function ConfirmButton(props: {
  label: React.ReactNode; // the trigger's content (its accessible name)
  title: string;
  body: React.ReactNode;
  confirmLabel: string;
  onConfirm: () => Promise<string | null>; // an error message, or null when done
  triggerClassName?: string;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const id = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    ref.current?.close();
    trigger.current?.focus();
  };
  return (
    <>
      <button
        ref={trigger}
        type="button"
        className={props.triggerClassName ?? btn.danger}
        onClick={() => {
          setError(null);
          ref.current?.showModal();
        }}
      >
        {props.label}
      </button>
      <dialog
        ref={ref}
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-body`}
        onClose={() => trigger.current?.focus()}
        className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-xl border border-slate-200 bg-white p-5 shadow-lg backdrop:bg-slate-900/40"
      >
        <h2 id={`${id}-title`} className="text-lg font-semibold text-slate-900">
          {props.title}
        </h2>
        <div id={`${id}-body`} className="mt-2 text-sm text-slate-700">
          {props.body}
        </div>
        {error && (
          <p role="alert" className="mt-3 rounded-md bg-rose-50 px-3 py-2 text-sm text-rose-800">
            {error}
          </p>
        )}
        <div className="mt-5 flex flex-wrap justify-end gap-2">
          <button
            type="button"
            className={btn.secondary}
            onClick={close} /* biome-ignore lint/a11y/noAutofocus: the safe choice takes focus when the dialog opens */
            autoFocus
          >
            Cancel
          </button>
          <button
            type="button"
            className={btn.danger}
            disabled={busy}
            onClick={async () => {
              setBusy(true);
              const e = await props.onConfirm();
              setBusy(false);
              if (e) setError(e);
              else close();
            }}
          >
            {busy ? "Working…" : props.confirmLabel}
          </button>
        </div>
      </dialog>
    </>
  );
}
