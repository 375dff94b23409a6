"use client";

import { CopyButton } from "@/components/ui/copy-button";
import { btn, field } from "@/components/ui/styles";
import { formatDateTime } from "@/lib/format/dates";

// A one-time link (invitation, password reset) shown once, with a copy button: the
// service keeps only its hash, so it cannot be shown again.
export function OnceLink({ id, title, url, expiresAt, note }: { id: string; title: string; url: string; expiresAt: string; note: string }) {
  return (
    <div role="status" className="rounded-md border border-emerald-200 bg-emerald-50 p-3 text-sm text-emerald-950">
      <p className="font-medium">{title}</p>
      <p className="mt-1">
        {note} It works until {formatDateTime(expiresAt)}. Copy it now: it is not shown again.
      </p>
      <div className="mt-2 flex flex-col gap-2 sm:flex-row">
        <label htmlFor={id} className="sr-only">
          {title}
        </label>
        <input id={id} readOnly value={url} className={`${field.input} mt-0 font-mono text-xs`} onFocus={(e) => e.currentTarget.select()} />
        <CopyButton text={url} label="Copy link" fallbackInputId={id} className={`${btn.secondary} whitespace-nowrap`} />
      </div>
    </div>
  );
}
