import { z } from "zod";
import { ZCurrency, ZExternalReference, ZMinor, ZMinorOut, ZPageQuery, ZTimestamp, ZUuid, listEnvelope } from "@/lib/schemas/common";
import { CONTEXT_KINDS, CONTEXT_TYPES, OBLIGATION_STATUSES, ZContextEntry, ZExpectedVersion, ZObligationProjection } from "@/lib/schemas/obligations";

// Business contexts: companies, projects, orders, invoices and external objects that can be
// related to each other (no fixed hierarchy) and attached to obligations.

export { CONTEXT_KINDS, CONTEXT_TYPES, OBLIGATION_STATUSES };
export type ContextType = (typeof CONTEXT_TYPES)[number];
export type ContextKind = (typeof CONTEXT_KINDS)[number];

// `kind` defaults from `type`; `type_label` defaults to the type's human label.
export const DEFAULT_KIND: Record<ContextType, ContextKind> = {
  company: "company",
  project: "group",
  order: "reference",
  invoice: "reference",
  external_object: "reference",
};
export const DEFAULT_TYPE_LABEL: Record<ContextType, string> = {
  company: "Company",
  project: "Project",
  order: "Order",
  invoice: "Invoice",
  external_object: "External object",
};

export const ZContextType = z.enum(CONTEXT_TYPES).meta({ description: "What the context is: `company`, `project`, `order`, `invoice` or `external_object`" });
export const ZContextKind = z
  .enum(CONTEXT_KINDS)
  .meta({ description: "The generic grouping model: `company`, `group` (e.g. a project) or `reference` (e.g. an order, an invoice, an external object)" });

export const ZRelationshipType = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(100)
  .meta({ description: "Free-form name of the relationship, e.g. `parent_of`, `supplies`, `belongs_to` (1-100 characters)", example: "belongs_to" });

// ---------------------------------------------------------------------------------------
// Requests

export const ZCreateBusinessContext = z
  .strictObject({
    type: ZContextType,
    kind: ZContextKind.optional().meta({
      description: "Defaults from `type`: company -> `company`, project -> `group`, order/invoice/external_object -> `reference`",
    }),
    name: z.string().trim().min(1, "must not be empty").max(200).meta({ description: "Display name (1-200 characters)", example: "Acme Construction Ltd" }),
    reference: z
      .string()
      .trim()
      .max(200)
      .optional()
      .meta({ description: 'Your own reference (order number, project code...); `""` when omitted', example: "PRJ-2026-014" }),
    type_label: z
      .string()
      .trim()
      .max(100)
      .optional()
      .meta({ description: 'Human label of the type; defaults (also when `""`) to the type\'s label, e.g. `Company`, `External object`', example: "Company" }),
    external_reference: ZExternalReference.optional().meta({ description: "Identifier of the object in another system" }),
  })
  .meta({ description: "CreateBusinessContext" });
export type TCreateBusinessContext = z.output<typeof ZCreateBusinessContext>;

export const ZCreateContextRelationship = z
  .strictObject({
    related_context_id: ZUuid.meta({
      description:
        "Another business context of the same organization. An unknown or foreign id, or the context's own id, is 422 `validation_failed` naming `body.related_context_id`.",
    }),
    relationship_type: ZRelationshipType,
  })
  .meta({ description: "CreateContextRelationship" });
export type TCreateContextRelationship = z.output<typeof ZCreateContextRelationship>;

export const DEFAULT_LINK_RELATIONSHIP_TYPE = "related";

export const ZCreateObligationContextLink = z
  .strictObject({
    context_id: ZUuid.meta({
      description: "A business context of the same organization. An unknown or foreign id is 422 `validation_failed` naming `body.context_id`.",
    }),
    relationship_type: ZRelationshipType.optional().meta({ description: "Default `related` (as for `context_ids` at registration)" }),
    attributed_minor: ZMinor.optional().meta({
      description:
        "The part of the obligation attributed to this context, in the obligation's currency. The attributed amounts of one obligation never exceed its `amount_minor` (else 422 `validation_failed` naming `body.attributed_minor`).",
    }),
    expected_version: ZExpectedVersion,
  })
  .meta({ description: "CreateObligationContextLink" });
export type TCreateObligationContextLink = z.output<typeof ZCreateObligationContextLink>;

const emptyOr = <T extends readonly [string, ...string[]]>(values: T) => z.enum(["", ...values] as [string, ...string[]]);

export const ZListBusinessContextsQuery = ZPageQuery.extend({
  context_type: emptyOr(CONTEXT_TYPES).default("").meta({
    deprecated: true,
    description: "Deprecated compatibility filter on `type` (still honoured; prefer `context_kind`). Empty: no filter.",
  }),
  context_kind: emptyOr(CONTEXT_KINDS).default("").meta({ description: "Filter on `kind`. Empty: no filter." }),
  search: z.string().max(200).default("").meta({ description: "Case-insensitive substring of `name` or `reference`. Empty: no filter." }),
});
export type TListBusinessContextsQuery = z.output<typeof ZListBusinessContextsQuery>;

// ---------------------------------------------------------------------------------------
// Responses

const contextFields = {
  id: ZUuid,
  type: ZContextType,
  kind: ZContextKind,
  type_label: z.string(),
  name: z.string(),
  reference: z.string().meta({ description: '`""` when not set' }),
};

export const ZBusinessContextSummary = z.strictObject(contextFields).meta({ description: "Business context summary" });

const businessContextFields = {
  ...contextFields,
  external_reference: ZExternalReference.nullable().meta({ description: "`null` when not set" }),
  created_at: ZTimestamp,
};

export const ZBusinessContext = z.strictObject(businessContextFields).meta({ description: "Business context" });
export type TBusinessContext = z.output<typeof ZBusinessContext>;

export const ZRelationshipDirection = z
  .enum(["outgoing", "incoming"])
  .meta({ description: "`outgoing`: this context -> related context; `incoming`: related context -> this context" });

export const ZContextRelationshipEntry = z.strictObject({
  id: ZUuid,
  relationship_type: z.string(),
  direction: ZRelationshipDirection,
  related_context: ZBusinessContextSummary,
  created_at: ZTimestamp,
});

export const ZContextRelationship = z
  .strictObject({
    id: ZUuid,
    context_id: ZUuid.meta({ description: "The context of the path (the relationship's source)" }),
    related_context_id: ZUuid.meta({ description: "The related context (the relationship's target)" }),
    relationship_type: z.string(),
    direction: z.literal("outgoing").meta({ description: "Always `outgoing` from the path's context" }),
    related_context: ZBusinessContextSummary,
    created_at: ZTimestamp,
  })
  .meta({ description: "Context relationship" });
export type TContextRelationship = z.output<typeof ZContextRelationship>;

export const ZContextObligation = z.strictObject({
  id: ZUuid,
  reference: z.string(),
  status: z.enum(OBLIGATION_STATUSES),
  amount_minor: ZMinor,
  allocated_minor: ZMinorOut,
  currency: ZCurrency,
  relationship_type: z.string(),
  attributed_minor: ZMinor.optional().meta({ description: "The part of the obligation attributed to this context; absent when the link attributes no amount" }),
  link_id: ZUuid,
  linked_at: ZTimestamp,
});

export const ZContextTotal = z.strictObject({
  currency: ZCurrency,
  status: z.enum(OBLIGATION_STATUSES),
  obligation_count: z.number().int(),
  amount_minor: ZMinorOut.meta({ description: "Sum of the obligations' amounts" }),
  allocated_minor: ZMinorOut.meta({ description: "Sum of the obligations' allocated amounts" }),
  attributed_minor: ZMinorOut.meta({ description: "Sum of the amounts attributed to this context" }),
});

export const DETAIL_RELATIONSHIP_LIMIT = 500;
export const DETAIL_OBLIGATION_LIMIT = 500;

export const ZBusinessContextDetail = z
  .strictObject({
    ...businessContextFields,
    relationships: z.array(ZContextRelationshipEntry).meta({
      description: `Relationships in both directions, newest first (at most ${DETAIL_RELATIONSHIP_LIMIT}; \`relationship_count\` is the full count)`,
    }),
    relationship_count: z.number().int(),
    obligations: z.array(ZContextObligation).meta({
      description: `Obligations linked to this context, most recently linked first (at most ${DETAIL_OBLIGATION_LIMIT}; \`obligation_count\` is the full count)`,
    }),
    obligation_count: z.number().int(),
    totals: z.array(ZContextTotal).meta({ description: "Totals over every linked obligation, by currency and status (ordered by currency, then lifecycle)" }),
  })
  .meta({ description: "Business context with its relationships, related obligations and totals" });
export type TBusinessContextDetail = z.output<typeof ZBusinessContextDetail>;

export const ZBusinessContextList = listEnvelope(ZBusinessContext);
export type TBusinessContextList = z.output<typeof ZBusinessContextList>;

export const ZObligationContextLink = z
  .strictObject({
    id: ZUuid.meta({ description: "The link's id" }),
    obligation_id: ZUuid,
    context_id: ZUuid,
    relationship_type: z.string(),
    attributed_minor: ZMinor.optional().meta({ description: "Absent when the link attributes no amount" }),
    currency: ZCurrency.meta({ description: "The obligation's currency (the currency of `attributed_minor`)" }),
    created_at: ZTimestamp,
    context: ZContextEntry.meta({ description: "The context entry as it now appears in the obligation's `contexts`" }),
    obligation: ZObligationProjection.meta({ description: "The obligation projection after the change" }),
    version: z.number().int().min(1).meta({ description: "The obligation's new version (the previous one + 1)" }),
    operation_id: z.string().meta({ description: "The id of the event the operation produced" }),
    event_type: z.literal("obligation.context_linked"),
  })
  .meta({ description: "Obligation-context link" });
export type TObligationContextLink = z.output<typeof ZObligationContextLink>;
