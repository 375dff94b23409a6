import type { Tx } from "@/lib/db/client";
import { ownSessionView } from "@/lib/administration/view";
import type { TOwnSession } from "@/lib/schemas/administration";

export type ListOwnSessionsInput = { organizationId: string; userId: string; sessionId: string };

// The caller's active sessions (not revoked, not expired), the current one first.
export async function listOwnSessions(tx: Tx, input: ListOwnSessionsInput): Promise<{ items: TOwnSession[] }> {
  const rows = await tx.issuerSession.findMany({
    where: { organizationId: input.organizationId, userId: input.userId, revokedAt: null, expiresAt: { gt: new Date() } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: 200,
  });
  const items = rows.map((r) => ownSessionView(r, input.sessionId));
  items.sort((a, b) => Number(b.current) - Number(a.current));
  return { items };
}
