import type { Tx } from "@/lib/db/client";
import { newId } from "@/lib/ids";
import { DEFAULT_KIND, DEFAULT_TYPE_LABEL, type TBusinessContext, type TCreateBusinessContext } from "@/lib/schemas/contexts";
import { contextView } from "@/lib/contexts/view";

// POST /business-contexts: kind and type_label default from the type.
export type CreateBusinessContextInput = { organizationId: string; body: TCreateBusinessContext };

export async function createBusinessContext(tx: Tx, input: CreateBusinessContextInput): Promise<TBusinessContext> {
  const { organizationId, body } = input;
  const row = await tx.businessContext.create({
    data: {
      id: newId(),
      organizationId,
      type: body.type,
      kind: body.kind ?? DEFAULT_KIND[body.type],
      name: body.name,
      reference: body.reference ?? "",
      typeLabel: body.type_label || DEFAULT_TYPE_LABEL[body.type],
      externalNamespace: body.external_reference?.namespace ?? null,
      externalId: body.external_reference?.id ?? null,
    },
  });
  return contextView(row);
}
