import { randomBytes } from "node:crypto";
import type { Tx } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import type { RecipientPrincipal } from "@/lib/auth/principal";
import { recordEvent } from "@/lib/events/record-event";
import { groupCounterparties } from "@/lib/counterparties/group-counterparties";
import { accountObligationPrincipal } from "@/lib/account-links/account-obligation";
import { getRecipientInvoice } from "@/lib/recipients/get-recipient-invoice";
import { rfReference } from "@/lib/payment-references/rf";
import type { TBasket } from "@/lib/schemas/counterparties";

const ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

// POST /recipient/accounts/{account}/baskets: one transfer for several open obligations of
// the account, in one currency. An item's amount defaults to what is due now (net of what is
// settled), else the outstanding amount; it may not exceed the outstanding amount. The basket
// gets its own ISO 11649 reference (`RF..BSK...`); a payment quoting it is allocated across
// the items in order (lib/account-links/allocate-basket-payment.ts). Event basket.created.
export type CreateBasketInput = { principal: RecipientPrincipal; items: { obligation_id: string; amount_minor?: string }[]; now?: Date };

export async function createBasket(tx: Tx, input: CreateBasketInput): Promise<TBasket> {
  const p = input.principal;
  const [cp] = await groupCounterparties(tx, { organizationId: p.organizationId, only: p.counterpartyId });
  const open = new Map((cp?.obligations ?? []).map((o) => [o.id, o]));
  const seen = new Set<string>();
  const items: { obligation_id: string; amount_minor: string }[] = [];
  let currency = "";
  let total = 0n;
  for (const [i, it] of input.items.entries()) {
    const id = it.obligation_id.toLowerCase();
    if (seen.has(id)) throw new AppError("validation_failed", `body.items.${i}.obligation_id: this obligation is already in the basket`);
    seen.add(id);
    const o = open.get(id);
    if (!o) {
      await accountObligationPrincipal(tx, p, id); // 404 when not in the account
      throw new AppError("invalid_state", "this obligation has nothing left to pay");
    }
    if (currency !== "" && o.currency !== currency)
      throw new AppError("validation_failed", `body.items.${i}.obligation_id: a basket holds obligations of one currency`);
    currency = o.currency;
    const outstanding = BigInt(o.outstanding_minor);
    let amount: bigint;
    if (it.amount_minor !== undefined) {
      amount = BigInt(it.amount_minor);
      if (amount > outstanding) throw new AppError("validation_failed", `body.items.${i}.amount_minor: at most the outstanding amount (${outstanding})`);
    } else {
      const invoice = await getRecipientInvoice(tx, { principal: await accountObligationPrincipal(tx, p, id) });
      const dueNow = BigInt(invoice.due_minor) - (BigInt(o.amount_minor) - outstanding);
      amount = dueNow > 0n && dueNow < outstanding ? dueNow : outstanding;
    }
    items.push({ obligation_id: id, amount_minor: amount.toString() });
    total += amount;
  }
  const id = newId();
  const body = `BSK${[...randomBytes(14)].map((b) => ALPHABET[b % 32]).join("")}`;
  const basket: TBasket = { id, payment_reference: rfReference(body), amount_minor: total.toString(), currency: currency as TBasket["currency"], items };
  const now = input.now ?? new Date();
  await tx.basket.create({
    data: {
      id,
      organizationId: p.organizationId,
      accountLinkId: p.accountLinkId ?? "",
      counterpartyId: p.counterpartyId ?? "",
      paymentReference: basket.payment_reference,
      currency,
      amountMinor: total,
      createdAt: now,
    },
  });
  await tx.basketItem.createMany({
    data: items.map((it, position) => ({
      organizationId: p.organizationId,
      basketId: id,
      position,
      obligationId: it.obligation_id,
      amountMinor: BigInt(it.amount_minor),
    })),
  });
  await recordEvent(tx, { organizationId: p.organizationId, type: "basket.created", principal: p, data: { basket } });
  return basket;
}
