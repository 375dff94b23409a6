import { Prisma } from "@/lib/generated/prisma/client";
import type { Tx } from "@/lib/db";
import type { TBusinessContextList, TListBusinessContextsQuery } from "@/lib/schemas/contexts";
import { contextView, fromRaw, type RawContextRow } from "@/lib/contexts/view";

// LIKE pattern for a case-insensitive substring match; the user's % _ and \ are literal.
export const containsPattern = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

// GET /business-contexts: newest first (created_at, then id: stable under equal timestamps).
// `search` matches name or reference with ILIKE, served by the trigram indexes of
// migration 0004 (see docs/business-contexts.md).
export type ListBusinessContextsInput = { organizationId: string; query: TListBusinessContextsQuery };

export async function listBusinessContexts(tx: Tx, input: ListBusinessContextsInput): Promise<TBusinessContextList> {
  const { organizationId, query: q } = input;
  const where: Prisma.Sql[] = [Prisma.sql`organization_id = ${organizationId}::uuid`];
  if (q.context_type) where.push(Prisma.sql`type = ${q.context_type}`);
  if (q.context_kind) where.push(Prisma.sql`kind = ${q.context_kind}`);
  const search = q.search.trim();
  if (search) {
    const p = containsPattern(search);
    where.push(Prisma.sql`(name ILIKE ${p} OR reference ILIKE ${p})`);
  }
  const rows = await tx.$queryRaw<RawContextRow[]>`
    SELECT id, type, kind, type_label, name, reference, external_namespace, external_id, created_at
    FROM business_contexts
    WHERE ${Prisma.join(where, " AND ")}
    ORDER BY created_at DESC, id DESC
    LIMIT ${q.limit} OFFSET ${q.offset}`;
  return { items: rows.map((r) => contextView(fromRaw(r))), limit: q.limit, offset: q.offset };
}
