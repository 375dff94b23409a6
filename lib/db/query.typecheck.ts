// Compiled by `tsc --noEmit` only (never run): the typed query builder refuses what the schema
// does not have. Each `@ts-expect-error` fails the type check should its line ever compile.
import { type Query, statement } from "@/lib/db/query";

export async function typeChecks(q: Query, organizationId: string): Promise<void> {
  const rows = await q.selectFrom("payment_instructions").select(["currency", "iban"]).where("organization_id", "=", organizationId).execute();
  const iban: string | null = rows[0].iban;
  void iban;

  // @ts-expect-error a misspelt table
  q.selectFrom("payment_instruction");

  // @ts-expect-error a column the table does not have
  q.selectFrom("organizations").select(["nmae"]);

  // @ts-expect-error money is bigint (int8), never a number
  const amount: number = (await q.selectFrom("payments").select("amount_minor").executeTakeFirstOrThrow()).amount_minor;
  void amount;

  // @ts-expect-error an insert missing a required column (name)
  q.insertInto("organizations").values({ id: organizationId });

  // @ts-expect-error a placeholder typed unlike its column (amounts are bigint)
  statement((k, p: { amount: number }) => k.selectFrom("payments").select("id").where("amount_minor", "=", p.amount));
}
