import { type Expression, expressionBuilder, type SqlBool } from "kysely";
import type { Payment } from "@/lib/generated/kysely/database";
import { parseDecimalToMinor } from "@/lib/money/format";
import { PAYMENT_STATUSES } from "@/lib/schemas/payments";

// The payments list's filters (dashboard): free text (payer, reference, external id, or an
// amount typed as a decimal) and the payment's status. Values are parameters, never SQL.
export type PaymentFilter = { search?: string; status?: string };

const likeEscaped = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

// The filter as one condition on the payments table aliased `p`, or undefined when it has none.
export function paymentFilterCondition(f: PaymentFilter): Expression<SqlBool> | undefined {
  const eb = expressionBuilder<{ p: Payment }, "p">();
  const parts: Expression<SqlBool>[] = [];
  const q = f.search?.trim().slice(0, 200) ?? "";
  if (q) {
    const like = `%${likeEscaped(q)}%`;
    const amounts = ["EUR", "JPY"].flatMap((c) => {
      const r = parseDecimalToMinor(q, c);
      return r.ok ? [r.minor] : [];
    });
    parts.push(
      eb.or([
        eb("p.payer_name", "ilike", like),
        eb("p.reference", "ilike", like),
        eb("p.external_id", "ilike", like),
        eb("p.note", "ilike", like),
        ...(amounts.length ? [eb("p.amount_minor", "=", eb.fn.any(eb.val(amounts.map(BigInt))))] : []),
      ]),
    );
  }
  switch (f.status && (PAYMENT_STATUSES as readonly string[]).includes(f.status) ? f.status : "") {
    case "dismissed":
      parts.push(eb("p.dismissed_at", "is not", null));
      break;
    case "unallocated":
      parts.push(eb.and([eb("p.dismissed_at", "is", null), eb("p.allocated_minor", "=", 0n)]));
      break;
    case "partially_allocated":
      parts.push(eb.and([eb("p.allocated_minor", ">", 0n), eb("p.allocated_minor", "<", eb.ref("p.amount_minor"))]));
      break;
    case "allocated":
      parts.push(eb("p.allocated_minor", "=", eb.ref("p.amount_minor")));
      break;
  }
  return parts.length ? eb.and(parts) : undefined;
}
