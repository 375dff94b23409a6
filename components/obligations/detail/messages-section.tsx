import { formatTimestamp } from "@/lib/dashboard/format";
import { Empty, Section } from "@/components/ui/section";
import { MessageForm } from "@/components/obligations/message-form";
import { EarlierEntries } from "@/components/obligations/detail/earlier-entries";
import type { SectionProps } from "@/components/obligations/detail/types";

// The conversation with the recipient, as they see it on the hosted page.
export function MessagesSection({ o, locale, canWrite }: SectionProps) {
  return (
    <Section title="Messages" id="messages" description="Visible to the recipient on the hosted page">
      {o.messages.length === 0 ? (
        <Empty>No messages yet.</Empty>
      ) : (
        <ol className="space-y-3">
          {o.messages_total > o.messages.length && (
            <li>
              <EarlierEntries obligationId={o.id} kind="messages" shown={o.messages.length} total={o.messages_total} />
            </li>
          )}
          {o.messages.map((msg) => (
            <li
              key={msg.id}
              className={`rounded-lg p-3 text-sm ${msg.author_type === "issuer" ? "ml-6 bg-brand-50" : "mr-6 border border-slate-200 bg-white"}`}
            >
              <p className="text-xs text-slate-700">
                <span className="font-medium">{msg.author_type === "issuer" ? `${msg.author_name || "You"} (you)` : msg.author_name || "Recipient"}</span> ·{" "}
                <time dateTime={msg.created_at}>{formatTimestamp(msg.created_at, locale)}</time>
              </p>
              <p className="mt-1 whitespace-pre-wrap break-words">{msg.body}</p>
            </li>
          ))}
        </ol>
      )}
      {canWrite && (
        <div className="mt-4">
          <MessageForm />
        </div>
      )}
    </Section>
  );
}
