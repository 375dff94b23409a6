import { z } from "zod";
import { ZAllocatePayment, ZRecordPayment, type TAllocatePayment, type TRecordPayment } from "@/lib/schemas/payments";
import { parseDecimalToMinor } from "@/lib/money/format";

// The payment forms of the dashboard: a person types decimal amounts; the bodies sent are
// checked with the API's own schemas (ZRecordPayment, ZAllocatePayment).

type Issue = { path: (string | number)[]; message: string };

const R = ZRecordPayment.shape;

export const ZRecordPaymentForm = z
  .object({
    amount: z.string(),
    currency: R.currency,
    received_on: R.received_on,
    payer_name: z.string().max(500),
    reference: z.string().max(500),
    note: z.string().max(4000),
  })
  .superRefine((v, ctx) => {
    for (const i of toRecordPaymentBody(v).issues) ctx.addIssue({ code: "custom", path: i.path, message: i.message });
  });
export type TRecordPaymentForm = z.input<typeof ZRecordPaymentForm>;

export function toRecordPaymentBody(v: TRecordPaymentForm): { body?: TRecordPayment; issues: Issue[] } {
  const amount = parseDecimalToMinor(v.amount, v.currency);
  if (!amount.ok) return { issues: [{ path: ["amount"], message: amount.message }] };
  const body = {
    amount_minor: amount.minor,
    currency: v.currency,
    received_on: v.received_on,
    ...(v.payer_name.trim() ? { payer_name: v.payer_name.trim() } : {}),
    ...(v.reference.trim() ? { reference: v.reference.trim() } : {}),
    ...(v.note.trim() ? { note: v.note.trim() } : {}),
  };
  const r = ZRecordPayment.safeParse(body);
  if (!r.success) return { issues: r.error.issues.map((i) => ({ path: i.path[0] === "amount_minor" ? ["amount"] : i.path.map(String), message: i.message })) };
  return { body: r.data, issues: [] };
}

export const ZAllocateForm = z.object({ obligation_id: z.string().min(1, "Choose an obligation."), amount: z.string() });
export type TAllocateForm = z.input<typeof ZAllocateForm>;

export function toAllocateBody(v: TAllocateForm, currency: string, expectedVersion: number): { body?: TAllocatePayment; issues: Issue[] } {
  const amount = parseDecimalToMinor(v.amount, currency);
  if (!amount.ok) return { issues: [{ path: ["amount"], message: amount.message }] };
  const r = ZAllocatePayment.safeParse({ obligation_id: v.obligation_id, amount_minor: amount.minor, expected_version: expectedVersion });
  if (!r.success) return { issues: r.error.issues.map((i) => ({ path: i.path[0] === "amount_minor" ? ["amount"] : i.path.map(String), message: i.message })) };
  return { body: r.data, issues: [] };
}
