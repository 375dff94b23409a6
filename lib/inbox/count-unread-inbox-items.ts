import type { Tx } from "@/lib/db/client";
import { query } from "@/lib/db/query";
import { sql as raw } from "kysely";

// The navigation's unread count: one count over the partial index of unread items
// (migration 0025), capped so a large backlog costs no more than `cap` index entries.
export type CountUnreadInboxItemsInput = { organizationId: string; cap?: number };

export async function countUnreadInboxItems(tx: Tx, input: CountUnreadInboxItemsInput): Promise<number> {
  const cap = input.cap ?? 100;
  const inner = query(tx)
    .selectFrom("inbox_items")
    .select(raw<number>`1`.as("one"))
    .where("organization_id", "=", input.organizationId)
    .where("read_at", "is", null)
    .limit(cap);
  const row = await query(tx).selectFrom(inner.as("u")).select(raw<number>`count(*)::int`.as("n")).executeTakeFirst();
  return row?.n ?? 0;
}
