import type { Tx } from "@/lib/db/client";
import { query } from "@/lib/db/query";
import type { TInboxItem } from "@/lib/schemas/inbox";

// An inbox row joined with its obligation (lib/inbox/list-inbox-items.ts) as the wire item.
export type InboxRow = {
  id: string;
  kind: string;
  obligation_id: string;
  event_id: string;
  detail: unknown;
  created_at: Date;
  read_at: Date | null;
  label: string;
  invoice_number: string;
  debtor_name: string;
  amount_minor: bigint;
  currency: string;
};

export function toInboxItem(r: InboxRow): TInboxItem {
  return {
    id: r.id,
    kind: r.kind as TInboxItem["kind"],
    obligation: {
      id: r.obligation_id,
      label: r.label,
      invoice_number: r.invoice_number,
      debtor_name: r.debtor_name,
      amount_minor: r.amount_minor.toString(),
      currency: r.currency as TInboxItem["obligation"]["currency"],
    },
    detail: r.detail && typeof r.detail === "object" && !Array.isArray(r.detail) ? (r.detail as Record<string, unknown>) : {},
    event_id: r.event_id,
    created_at: r.created_at.toISOString(),
    read_at: r.read_at ? r.read_at.toISOString() : null,
  };
}

// Inbox items with the obligation each names, of one organization: the columns toInboxItem reads.
export function selectInboxItems(tx: Tx, { organizationId }: { organizationId: string }) {
  return query(tx)
    .selectFrom("inbox_items as i")
    .innerJoin("obligations as o", (j) => j.onRef("o.id", "=", "i.obligation_id").onRef("o.organization_id", "=", "i.organization_id"))
    .select([
      "i.id",
      "i.kind",
      "i.obligation_id",
      "i.event_id",
      "i.detail",
      "i.created_at",
      "i.read_at",
      "o.label",
      "o.invoice_number",
      "o.debtor_name",
      "o.amount_minor",
      "o.currency",
    ])
    .where("i.organization_id", "=", organizationId);
}
