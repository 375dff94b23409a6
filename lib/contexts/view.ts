import type { BusinessContext } from "@/lib/generated/prisma/client";
import type { ContextKind, ContextType } from "@/lib/schemas/contexts";

// Database rows -> the wire shapes of lib/schemas/contexts.ts.

export type ContextRow = Pick<BusinessContext, "id" | "type" | "kind" | "typeLabel" | "name" | "reference" | "externalNamespace" | "externalId" | "createdAt">;

// Raw SQL rows of business_contexts (snake_case columns).
export type RawContextRow = {
  id: string;
  type: string;
  kind: string;
  type_label: string;
  name: string;
  reference: string;
  external_namespace: string | null;
  external_id: string | null;
  created_at: Date;
};

export const fromRaw = (r: RawContextRow): ContextRow => ({
  id: r.id,
  type: r.type,
  kind: r.kind,
  typeLabel: r.type_label,
  name: r.name,
  reference: r.reference,
  externalNamespace: r.external_namespace,
  externalId: r.external_id,
  createdAt: r.created_at,
});

export function contextSummary(c: Pick<ContextRow, "id" | "type" | "kind" | "typeLabel" | "name" | "reference">) {
  return {
    id: c.id,
    type: c.type as ContextType,
    kind: c.kind as ContextKind,
    type_label: c.typeLabel,
    name: c.name,
    reference: c.reference,
  };
}

export function contextView(c: ContextRow) {
  return {
    ...contextSummary(c),
    external_reference: c.externalNamespace !== null && c.externalId !== null ? { namespace: c.externalNamespace, id: c.externalId } : null,
    created_at: c.createdAt.toISOString(),
  };
}
