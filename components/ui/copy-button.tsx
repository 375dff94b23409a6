"use client";

import { useState } from "react";
import { btn } from "@/components/ui/styles";

// Copies text to the clipboard; where the Clipboard API is unavailable (plain http on a
// non-local host) it falls back to selecting the text of `fallbackInputId`.
export async function copyText(text: string, fallbackInputId?: string): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    /* fall through */
  }
  const el = fallbackInputId ? (document.getElementById(fallbackInputId) as HTMLInputElement | HTMLTextAreaElement | null) : null;
  if (el) {
    el.focus();
    el.select();
    try {
      return document.execCommand("copy");
    } catch {
      return false;
    }
  }
  return false;
}

export function CopyButton({
  text,
  label = "Copy",
  fallbackInputId,
  className,
}: {
  text: string;
  label?: string;
  fallbackInputId?: string;
  className?: string;
}) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  return (
    <>
      <button
        type="button"
        className={className ?? btn.secondary}
        onClick={async () => {
          const ok = await copyText(text, fallbackInputId);
          setState(ok ? "copied" : "failed");
          setTimeout(() => setState("idle"), 2500);
        }}
      >
        {state === "copied" ? "Copied" : label}
      </button>
      <span role="status" className="sr-only">
        {state === "copied" ? "Copied to the clipboard" : state === "failed" ? "Could not copy; select the text and copy it yourself" : ""}
      </span>
    </>
  );
}
