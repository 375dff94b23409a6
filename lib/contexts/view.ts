import type { BusinessContext } from "@/lib/generated/prisma/client";
import type { ContextKind, ContextType } from "@/lib/schemas/contexts";

// Database rows -> the wire shapes of lib/schemas/contexts.ts.

export type ContextRow = Pick<BusinessContext, "id" | "type" | "kind" | "typeLabel" | "name" | "reference" | "externalNamespace" | "externalId" | "createdAt">;

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
