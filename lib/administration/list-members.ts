import type { Tx } from "@/lib/db/client";
import { memberView } from "@/lib/administration/view";
import type { TMember } from "@/lib/schemas/administration";

export type ListMembersInput = { organizationId: string; limit: number; offset: number };

export async function listMembers(tx: Tx, input: ListMembersInput): Promise<{ items: TMember[]; limit: number; offset: number }> {
  const rows = await tx.membership.findMany({
    where: { organizationId: input.organizationId },
    include: { user: true },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    take: input.limit,
    skip: input.offset,
  });
  return { items: rows.map(memberView), limit: input.limit, offset: input.offset };
}
