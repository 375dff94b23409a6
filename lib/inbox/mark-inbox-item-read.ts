import type { Tx } from "@/lib/db/client";
import { query } from "@/lib/db/query";
import { actorOf, type IssuerPrincipal } from "@/lib/auth/principal";
import { AppError } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import type { TInboxItem } from "@/lib/schemas/inbox";
import { selectInboxItems, toInboxItem } from "@/lib/inbox/view";

// POST /inbox/{id}/read: marks an item read (idempotent: an item already read keeps its
// first read_at). 404 for an id of another organization or none.
export type MarkInboxItemReadInput = { principal: IssuerPrincipal; itemId: string };

export async function markInboxItemRead(tx: Tx, input: MarkInboxItemReadInput): Promise<TInboxItem> {
  const { principal, itemId } = input;
  const notFound = new AppError("not_found", "inbox item not found");
  if (!isUuid(itemId)) throw notFound;
  const q = query(tx);
  await q
    .updateTable("inbox_items")
    .set({ read_at: new Date(), read_by: actorOf(principal).actorLabel })
    .where("organization_id", "=", principal.organizationId)
    .where("id", "=", itemId)
    .where("read_at", "is", null)
    .execute();
  const row = await selectInboxItems(tx, { organizationId: principal.organizationId }).where("i.id", "=", itemId).executeTakeFirst();
  if (!row) throw notFound;
  return toInboxItem(row);
}
