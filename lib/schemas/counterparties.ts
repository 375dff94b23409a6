import { z } from "zod";
import { ZCurrency, ZMinor, ZMinorOut, ZUuid, listEnvelope } from "@/lib/schemas/common";

// Counterparties (docs/recipient-portal.md): the debtors of creditor-role obligations, grouped.
export const ZCounterpartyListQuery = z.strictObject({
  q: z.string().max(200).default("").meta({ description: "Case-insensitive substring of the name or email" }),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});

export const ZCurrencyAmount = z.strictObject({ currency: ZCurrency, amount_minor: ZMinorOut });

export const ZCounterparty = z.strictObject({
  id: ZUuid,
  name: z.string(),
  email: z.string().nullable(),
  open_count: z.number().int(),
  outstanding: z.array(ZCurrencyAmount),
  overdue: z.array(ZCurrencyAmount),
});

export const ZCounterpartyList = listEnvelope(ZCounterparty);

export const ZCounterpartyObligation = z.strictObject({
  id: ZUuid,
  reference: z.string(),
  invoice_number: z.string(),
  status: z.string(),
  currency: ZCurrency,
  amount_minor: ZMinorOut,
  outstanding_minor: ZMinorOut,
  deadline: z.string(),
  overdue: z.boolean(),
  version: z.number().int(),
});

export const ZCounterpartyDetail = ZCounterparty.extend({ obligations: z.array(ZCounterpartyObligation) });

export const ZAccountLink = z.strictObject({
  id: ZUuid,
  hosted_url: z.string(),
  expires_at: z.string(),
});

export const ZAccountLinkState = z.strictObject({
  id: ZUuid,
  expires_at: z.string(),
  revoked_at: z.string().nullable(),
  created_at: z.string(),
});

export const ZAccountParams = z.strictObject({ account: ZUuid });
export const ZAccountObligationParams = z.strictObject({ account: ZUuid, id: ZUuid });
export const ZAccountDocumentParams = z.strictObject({ account: ZUuid, id: ZUuid, document: ZUuid });

export const ZAccountSession = z.strictObject({
  account_id: ZUuid,
  counterparty: z.strictObject({ name: z.string(), email: z.string().nullable() }),
});

export const ZBasketInput = z.strictObject({
  items: z
    .array(z.strictObject({ obligation_id: ZUuid, amount_minor: ZMinor.optional() }))
    .min(1)
    .max(100),
});

export const ZBasketItem = z.strictObject({ obligation_id: ZUuid, amount_minor: ZMinorOut });

export const ZBasket = z.strictObject({
  id: ZUuid,
  payment_reference: z.string(),
  amount_minor: ZMinorOut,
  currency: ZCurrency,
  items: z.array(ZBasketItem),
});

export type TCounterparty = z.infer<typeof ZCounterparty>;
export type TCounterpartyObligation = z.infer<typeof ZCounterpartyObligation>;
export type TBasket = z.infer<typeof ZBasket>;
