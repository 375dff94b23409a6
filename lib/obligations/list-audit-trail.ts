import type { Tx } from "@/lib/db/client";
import { auditItems, eventsNewestFirst, type PageInput, pageReader } from "@/lib/obligations/detail-parts";

// GET /obligations/{id}/audit-trail: every event of the obligation, newest first, a page at
// a time; the detail holds only the most recent ones (DETAIL_RECENT_LIMIT). 404 for an
// obligation of another organization.
export type ListAuditTrailInput = PageInput;

const page = pageReader(eventsNewestFirst, auditItems);

export async function listAuditTrail(tx: Tx, input: ListAuditTrailInput) {
  return page(tx, input);
}
