import type { Tx } from "@/lib/db/client";
import { later, query } from "@/lib/db/query";
import { newId } from "@/lib/ids";
import type { INBOX_KIND_VALUES } from "@/lib/schemas/inbox";

// What payers did through the hosted link, for the issuer's inbox (docs/dashboard.md "Inbox"):
// one row per action, written in the action's transaction and held back (sent with COMMIT),
// so it costs the action no round trip. `eventId` is the action's event (its operation_id).
export type InboxKind = (typeof INBOX_KIND_VALUES)[number];

export type RecordInboxItemInput = {
  organizationId: string;
  obligationId: string;
  kind: InboxKind;
  eventId: string;
  detail: Record<string, unknown>;
};

export function recordInboxItem(tx: Tx, input: RecordInboxItemInput): Promise<void> {
  return later(
    tx,
    query(tx)
      .insertInto("inbox_items")
      .values({
        organization_id: input.organizationId,
        id: newId(),
        obligation_id: input.obligationId,
        kind: input.kind,
        event_id: input.eventId,
        detail: JSON.stringify(input.detail),
      }),
  );
}
