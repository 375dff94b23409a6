import type { Tx } from "@/lib/db/client";
import type { TInboxQuery } from "@/lib/schemas/inbox";
import { selectInboxItems, toInboxItem } from "@/lib/inbox/view";

// GET /inbox: a page of what payers did, newest first (created_at, id descending), optionally
// of one kind and/or only unread (or only read) items. One statement: the page is a range of
// the (organization_id[, kind], created_at, id) index, or of the partial unread index; each
// item's obligation is a primary-key look-up.
export type ListInboxItemsInput = { organizationId: string; query: TInboxQuery };

export async function listInboxItems(tx: Tx, input: ListInboxItemsInput) {
  const { organizationId, query: q } = input;
  let page = selectInboxItems(tx, { organizationId });
  if (q.kind) page = page.where("i.kind", "=", q.kind);
  if (q.unread === "true") page = page.where("i.read_at", "is", null);
  if (q.unread === "false") page = page.where("i.read_at", "is not", null);
  const rows = await page.orderBy("i.created_at", "desc").orderBy("i.id", "desc").limit(q.limit).offset(q.offset).execute();
  return { items: rows.map(toInboxItem), limit: q.limit, offset: q.offset };
}
