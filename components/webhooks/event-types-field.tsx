"use client";

import { useState } from "react";
import type { UseFormRegisterReturn } from "react-hook-form";
import { EVENT_TYPES } from "@/lib/events/event-types";
import { eventLabel } from "@/lib/dashboard/format";
import { Hint } from "@/components/ui/field";

// The event types an endpoint can choose (the test event goes to the endpoint it tests,
// whatever it chose), grouped as a clerk thinks of them.
const GROUPS: { title: string; types: string[] }[] = [
  { title: "Obligations", types: EVENT_TYPES.filter((t) => t.startsWith("obligation.")) },
  { title: "Payments and statements", types: EVENT_TYPES.filter((t) => t.startsWith("payment.") || t.startsWith("bank_statement.")) },
  { title: "Links and endpoints", types: EVENT_TYPES.filter((t) => t.startsWith("payment_request.") || t.startsWith("webhook_endpoint.")) },
];

// Checkboxes of event types behind a disclosure that says what is chosen; none checked
// means every event (the API's empty list). Open from the start when a choice exists.
export function EventTypesField({ idPrefix, registration, chosen }: { idPrefix: string; registration: UseFormRegisterReturn; chosen: readonly string[] }) {
  const [initiallyOpen] = useState(chosen.length > 0);
  return (
    <details open={initiallyOpen || undefined} className="rounded-md border border-slate-200 bg-white px-3 py-2">
      <summary className="cursor-pointer text-sm font-medium text-slate-800">
        Events to send: {chosen.length === 0 ? "every event" : chosen.length === 1 ? "1 chosen" : `${chosen.length} chosen`}
      </summary>
      <fieldset className="mt-2" aria-describedby={`${idPrefix}-types-hint`}>
        <legend className="sr-only">Events to send</legend>
        <Hint id={`${idPrefix}-types-hint`}>Leave all unchecked to send every event. Checked: only those events are sent.</Hint>
        <div className="mt-2 grid gap-x-6 gap-y-3 sm:grid-cols-2 lg:grid-cols-3">
          {GROUPS.map((g) => (
            <fieldset key={g.title}>
              <legend className="text-xs font-semibold uppercase tracking-wide text-slate-600">{g.title}</legend>
              <ul className="mt-1 space-y-1.5">
                {g.types.map((t) => (
                  <li key={t}>
                    <label className="flex items-start gap-2 text-sm text-slate-800">
                      <input type="checkbox" value={t} className="mt-0.5 size-4 shrink-0" {...registration} />
                      <span className="min-w-0">
                        {eventLabel(t)}
                        <span className="block break-all font-mono text-xs text-slate-600">{t}</span>
                      </span>
                    </label>
                  </li>
                ))}
              </ul>
            </fieldset>
          ))}
        </div>
      </fieldset>
    </details>
  );
}
