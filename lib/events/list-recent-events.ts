import type { Tx } from "@/lib/db/client";

export type RecentEvent = {
  id: string;
  event_type: string;
  created_at: string;
  actor: { type: string; label: string };
  obligation: { id: string; reference: string; counterparty: string } | null;
};

// The organization's latest events (newest first) with the obligation each one is about:
// the activity feed of the dashboard. Only the audit facts are returned, never the
// payload snapshot.
export type ListRecentEventsInput = { organizationId: string; limit?: number };

export async function listRecentEvents(tx: Tx, input: ListRecentEventsInput): Promise<RecentEvent[]> {
  const { organizationId, ...opts } = input;
  const events = await tx.event.findMany({
    where: { organizationId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: Math.min(Math.max(opts.limit ?? 15, 1), 100),
    select: { id: true, type: true, createdAt: true, actorType: true, actorLabel: true, obligationId: true },
  });
  const ids = [...new Set(events.flatMap((e) => (e.obligationId ? [e.obligationId] : [])))];
  const obligations = ids.length
    ? await tx.obligation.findMany({
        where: { organizationId, id: { in: ids } },
        select: { id: true, reference: true, organizationRole: true, debtorName: true, creditorName: true },
      })
    : [];
  const byId = new Map(obligations.map((o) => [o.id, o]));
  return events.map((e) => {
    const o = e.obligationId ? byId.get(e.obligationId) : undefined;
    return {
      id: e.id,
      event_type: e.type,
      created_at: e.createdAt.toISOString(),
      actor: { type: e.actorType, label: e.actorLabel },
      obligation: o ? { id: o.id, reference: o.reference, counterparty: o.organizationRole === "creditor" ? o.debtorName : o.creditorName } : null,
    };
  });
}
