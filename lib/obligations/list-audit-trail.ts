import { sql, type Tx } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { auditItems, EVENTS_SELECT, type EventJson, pageSql } from "@/lib/obligations/get-obligation-detail";

// GET /obligations/{id}/audit-trail: every event of the obligation, newest first, a page at
// a time; the detail holds only the most recent ones (DETAIL_RECENT_LIMIT). 404 for an
// obligation of another organization.
export type ListAuditTrailInput = { organizationId: string; obligationId: string; limit: number; offset: number };

export async function listAuditTrail(tx: Tx, input: ListAuditTrailInput) {
  const { organizationId, obligationId, limit, offset } = input;
  const [r] = isUuid(obligationId)
    ? await sql<{ found: boolean; items: EventJson[] }>(tx, pageSql(EVENTS_SELECT), [organizationId, obligationId, limit, offset])
    : [];
  if (!r?.found) throw new AppError("not_found", "obligation not found");
  return { items: auditItems(r.items), limit, offset };
}
