import type { Tx } from "@/lib/db/client";

export type EndOtherSessionsInput = { userId: string; sessionId: string };

// "Sign out everywhere else": every session of the user except the calling one ends now
// (in every organization: the person, not the membership, asked for it).
export async function endOtherSessions(tx: Tx, input: EndOtherSessionsInput): Promise<{ ended: number }> {
  const r = await tx.issuerSession.updateMany({
    where: { userId: input.userId, revokedAt: null, id: { not: input.sessionId } },
    data: { revokedAt: new Date() },
  });
  return { ended: r.count };
}
