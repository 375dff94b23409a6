import type { Tx } from "@/lib/db/client";
import { query } from "@/lib/db/query";
import type { TBusinessContextList, TListBusinessContextsQuery } from "@/lib/schemas/contexts";
import { contextView } from "@/lib/contexts/view";

// LIKE pattern for a case-insensitive substring match; the user's % _ and \ are literal.
export const containsPattern = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

// GET /business-contexts: newest first (created_at, then id: stable under equal timestamps).
// `search` matches name or reference with ILIKE, served by the trigram indexes of
// migration 0004 (see docs/business-contexts.md).
export type ListBusinessContextsInput = { organizationId: string; query: TListBusinessContextsQuery };

export async function listBusinessContexts(tx: Tx, input: ListBusinessContextsInput): Promise<TBusinessContextList> {
  const { organizationId, query: q } = input;
  const search = q.search.trim();
  const rows = await query(tx)
    .selectFrom("business_contexts")
    .select([
      "id",
      "type",
      "kind",
      "type_label as typeLabel",
      "name",
      "reference",
      "external_namespace as externalNamespace",
      "external_id as externalId",
      "created_at as createdAt",
    ])
    .where("organization_id", "=", organizationId)
    .$if(q.context_type !== "", (s) => s.where("type", "=", q.context_type))
    .$if(q.context_kind !== "", (s) => s.where("kind", "=", q.context_kind))
    .$if(search !== "", (s) => s.where((eb) => eb.or([eb("name", "ilike", containsPattern(search)), eb("reference", "ilike", containsPattern(search))])))
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(q.limit)
    .offset(q.offset)
    .execute();
  return { items: rows.map(contextView), limit: q.limit, offset: q.offset };
}
