"use client";

import { useState } from "react";
import { formatDateTime } from "@/lib/format/dates";
import type { TRecipientInvoice } from "@/lib/schemas/recipient";
import { MessageForm, type Act } from "@/components/recipient/action-forms";
import { issuerOf } from "@/components/recipient/present";
import { useI18n } from "@/components/recipient/i18n";
import { Card } from "@/components/recipient/ui";

type Message = TRecipientInvoice["messages"][number];
// A page of the thread from `offset` (newest first): GET .../messages.
export type LoadEarlier = (offset: number) => Promise<{ ok: true; data: { items: Message[] } } | { ok: false }>;

// The conversation with the issuer, oldest first, and a form to add to it. The invoice holds
// the latest 100 messages; earlier ones load a hundred at a time (docs/security.md, "Bounds").
export function Messages({ inv, act, earlier }: { inv: TRecipientInvoice; act: Act; earlier: LoadEarlier }) {
  const { t, locale } = useI18n();
  const [older, setOlder] = useState<Message[]>([]);
  const [busy, setBusy] = useState(false);
  const shownIds = new Set(inv.messages.map((m) => m.id));
  const extra = older.filter((m) => !shownIds.has(m.id));
  const thread = [...extra, ...inv.messages];
  const more = inv.messages_total > thread.length;
  return (
    <Card id="messages" title={t("msg.title")} description={t("msg.description")}>
      {more && (
        <p className="mb-3">
          <button
            type="button"
            className="rounded-md border border-slate-300 px-3 py-2 text-sm font-medium"
            disabled={busy}
            onClick={async () => {
              setBusy(true);
              const r = await earlier(thread.length);
              setBusy(false);
              if (r.ok) setOlder((prev) => [...r.data.items.filter((m) => !prev.some((p) => p.id === m.id)).reverse(), ...prev]);
            }}
          >
            {t("msg.earlier")}
          </button>
        </p>
      )}
      {thread.length === 0 ? (
        <p className="text-sm text-slate-700">{t("msg.none")}</p>
      ) : (
        <ol className="space-y-3" aria-label={t("msg.thread")}>
          {thread.map((m) => {
            const mine = m.author_type === "recipient";
            return (
              <li key={m.id} className={`rounded-lg p-3 ${mine ? "ml-6 bg-brand-50" : "mr-6 bg-slate-100"}`}>
                <p className="text-sm">
                  <span className="font-semibold">{mine ? t("msg.you") : m.author_name || issuerOf(inv, t, true)}</span>{" "}
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
