import { Prisma } from "@/lib/generated/prisma/client";
import { parseDecimalToMinor } from "@/lib/money/format";
import { PAYMENT_STATUSES } from "@/lib/schemas/payments";

// The payments list's filters (dashboard): free text (payer, reference, external id, or an
// amount typed as a decimal) and the payment's status. Values are parameters, never SQL.
export type PaymentFilter = { search?: string; status?: string };

const likeEscaped = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export function paymentFilterSql(f: PaymentFilter): Prisma.Sql {
  const parts: Prisma.Sql[] = [];
  const q = f.search?.trim().slice(0, 200) ?? "";
  if (q) {
    const like = `%${likeEscaped(q)}%`;
    const amounts = ["EUR", "JPY"].flatMap((c) => {
      const r = parseDecimalToMinor(q, c);
      return r.ok ? [r.minor] : [];
    });
    parts.push(
      Prisma.sql`(p.payer_name ILIKE ${like} OR p.reference ILIKE ${like} OR p.external_id ILIKE ${like} OR p.note ILIKE ${like}${
        amounts.length ? Prisma.sql` OR p.amount_minor = ANY(${amounts}::bigint[])` : Prisma.empty
      })`,
    );
  }
  switch (f.status && (PAYMENT_STATUSES as readonly string[]).includes(f.status) ? f.status : "") {
    case "dismissed":
      parts.push(Prisma.sql`p.dismissed_at IS NOT NULL`);
      break;
    case "unallocated":
      parts.push(Prisma.sql`p.dismissed_at IS NULL AND p.allocated_minor = 0`);
      break;
    case "partially_allocated":
      parts.push(Prisma.sql`p.allocated_minor > 0 AND p.allocated_minor < p.amount_minor`);
      break;
    case "allocated":
      parts.push(Prisma.sql`p.allocated_minor = p.amount_minor`);
      break;
  }
  return parts.length ? Prisma.sql` AND ${Prisma.join(parts, " AND ")}` : Prisma.empty;
}
