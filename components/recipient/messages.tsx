"use client";

import { formatDateTime } from "@/lib/format/dates";
import type { TRecipientInvoice } from "@/lib/schemas/recipient";
import { MessageForm, type Act } from "@/components/recipient/action-forms";
import { Card } from "@/components/recipient/ui";

type Locale = readonly string[] | undefined;

// The conversation with the issuer, oldest first, and a form to add to it.
export function Messages({ inv, act, locale }: { inv: TRecipientInvoice; act: Act; locale: Locale }) {
  const issuer = inv.issuer_name || "Sender";
  return (
    <Card id="messages" title="Messages" description="Questions or remarks about this request. The sender sees them.">
      {inv.messages.length === 0 ? (
        <p className="text-sm text-slate-700">No messages yet.</p>
      ) : (
        <ol className="space-y-3" aria-label="Message thread">
          {inv.messages.map((m) => {
            const mine = m.author_type === "recipient";
            return (
              <li key={m.id} className={`rounded-lg p-3 ${mine ? "ml-6 bg-brand-50" : "mr-6 bg-slate-100"}`}>
                <p className="text-sm">
                  <span className="font-semibold">{mine ? "You" : m.author_name || issuer}</span>{" "}
                  <span className="text-slate-700">· {formatDateTime(m.created_at, locale)}</span>
                </p>
                <p className="mt-1 whitespace-pre-wrap break-words">{m.body}</p>
              </li>
            );
          })}
        </ol>
      )}
      <MessageForm inv={inv} act={act} />
    </Card>
  );
}
