import { sql, type Tx } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { type MessageJson, MESSAGES_SELECT, messageItems, pageSql } from "@/lib/obligations/get-obligation-detail";

// GET /obligations/{id}/messages (and the recipient's GET /recipient/messages): the whole
// message thread, newest first, a page at a time; the detail holds only the most recent
// messages (DETAIL_RECENT_LIMIT). 404 for an obligation of another organization.
export type ListObligationMessagesInput = { organizationId: string; obligationId: string; limit: number; offset: number };

export async function listObligationMessages(tx: Tx, input: ListObligationMessagesInput) {
  const { organizationId, obligationId, limit, offset } = input;
  const [r] = isUuid(obligationId)
    ? await sql<{ found: boolean; items: MessageJson[] }>(tx, pageSql(MESSAGES_SELECT), [organizationId, obligationId, limit, offset])
    : [];
  if (!r?.found) throw new AppError("not_found", "obligation not found");
  return { items: messageItems(r.items), limit, offset };
}
