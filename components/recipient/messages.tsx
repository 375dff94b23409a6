"use client";

import { formatDateTime } from "@/lib/format/dates";
import type { TRecipientInvoice } from "@/lib/schemas/recipient";
import { MessageForm, type Act } from "@/components/recipient/action-forms";
import { issuerOf } from "@/components/recipient/present";
import { useI18n } from "@/components/recipient/i18n";
import { Card } from "@/components/recipient/ui";

// The conversation with the issuer, oldest first, and a form to add to it.
export function Messages({ inv, act }: { inv: TRecipientInvoice; act: Act }) {
  const { t, locale } = useI18n();
  return (
    <Card id="messages" title={t("msg.title")} description={t("msg.description")}>
      {inv.messages.length === 0 ? (
        <p className="text-sm text-slate-700">{t("msg.none")}</p>
      ) : (
        <ol className="space-y-3" aria-label={t("msg.thread")}>
          {inv.messages.map((m) => {
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
