"use client";

import { useState } from "react";
import { apiCall } from "@/lib/client/api";
import { describeApiError } from "@/lib/client/errors";
import { btn } from "@/components/ui/styles";
import { FeedbackMessage, type Feedback } from "@/components/ui/feedback";

type Message = { id: string; author_type: string; author_name: string; body: string; created_at: string };
type AuditEntry = { id: string; event_type: string; actor: { type: string; label: string }; created_at: string };

const PAGE = 100;

// The entries older than the latest ones the page shows (a detail holds the most recent 100,
// docs/security.md "Bounds"): loaded a hundred at a time from the paging endpoint, newest
// first, and listed oldest first above the ones shown.
export function EarlierEntries({
  obligationId,
  kind,
  shown,
  total,
  labels,
}: {
  obligationId: string;
  kind: "messages" | "audit-trail";
  shown: number;
  total: number;
  labels?: Record<string, string>;
}) {
  const [items, setItems] = useState<(Message | AuditEntry)[]>([]);
  const [feedback, setFeedback] = useState<Feedback>(null);
  const [loading, setLoading] = useState(false);
  const loaded = shown + items.length;
  const noun = kind === "messages" ? "messages" : "events";

  async function loadMore() {
    setLoading(true);
    setFeedback(null);
    const r = await apiCall<{ items: (Message | AuditEntry)[] }>("GET", `/obligations/${obligationId}/${kind}?limit=${PAGE}&offset=${loaded}`);
    setLoading(false);
    if (!r.ok) return setFeedback({ kind: "error", text: describeApiError(r.error) });
    setItems((prev) => [...r.data.items.slice().reverse(), ...prev]);
  }

  return (
    <div className="mb-3 space-y-2 text-sm">
      <p className="text-slate-700">
        Showing the latest {loaded} of {total} {noun}.
      </p>
      {loaded < total && (
        <button type="button" className={btn.secondary} disabled={loading} onClick={loadMore}>
          {loading ? "Loading…" : `Show earlier ${noun}`}
        </button>
      )}
      {items.length > 0 && (
        <ol className="space-y-2" aria-label={`Earlier ${noun}`}>
          {items.map((e) => (
            <li key={e.id} className="rounded-md border border-slate-200 p-2">
              <p className="text-xs text-slate-700">
                <time dateTime={e.created_at}>{new Date(e.created_at).toLocaleString()}</time>
              </p>
              {"body" in e ? (
                <p className="whitespace-pre-wrap break-words">
                  <span className="font-medium">{e.author_type === "issuer" ? e.author_name || "You" : e.author_name || "Recipient"}:</span> {e.body}
                </p>
              ) : (
                <p>
                  <span className="font-medium">{labels?.[e.event_type] ?? e.event_type}</span> by {e.actor.label || e.actor.type}
                </p>
              )}
            </li>
          ))}
        </ol>
      )}
      <FeedbackMessage feedback={feedback} />
    </div>
  );
}
