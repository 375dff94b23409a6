import type { Tx } from "@/lib/db/client";
import { messageItems, messagesNewestFirst, type PageInput, pageReader } from "@/lib/obligations/detail-parts";

// GET /obligations/{id}/messages (and the recipient's GET /recipient/messages): the whole
// message thread, newest first, a page at a time; the detail holds only the most recent
// messages (DETAIL_RECENT_LIMIT). 404 for an obligation of another organization.
export type ListObligationMessagesInput = PageInput;

const page = pageReader(messagesNewestFirst, messageItems);

export async function listObligationMessages(tx: Tx, input: ListObligationMessagesInput) {
  return page(tx, input);
}
