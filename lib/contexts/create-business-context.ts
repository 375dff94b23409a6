import type { Tx } from "@/lib/db";
import { newId } from "@/lib/ids";
import { DEFAULT_KIND, DEFAULT_TYPE_LABEL, type TCreateBusinessContext } from "@/lib/schemas/contexts";
import { contextView } from "@/lib/contexts/view";

// POST /business-contexts: kind and type_label default from the type.
export async function createBusinessContext(tx: Tx, organizationId: string, input: TCreateBusinessContext) {
  const row = await tx.businessContext.create({
    data: {
      id: newId(),
      organizationId,
      type: input.type,
      kind: input.kind ?? DEFAULT_KIND[input.type],
      name: input.name,
      reference: input.reference ?? "",
      typeLabel: input.type_label || DEFAULT_TYPE_LABEL[input.type],
      externalNamespace: input.external_reference?.namespace ?? null,
      externalId: input.external_reference?.id ?? null,
    },
  });
  return contextView(row);
}
