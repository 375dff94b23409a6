import { money } from "@/lib/dashboard/format";
import type { TPayment } from "@/lib/schemas/payments";
import { Figures } from "@/components/ui/figures";

// A payment's key figures, on its own page and on its reconciliation page.
export function PaymentFigures({ payment: p, locale }: { payment: TPayment; locale: string }) {
  const m = (minor: string) => money(minor, p.currency, locale);
  return (
    <Figures
      items={[
        ["Amount", m(p.amount_minor)],
        ["Allocated", m(p.allocated_minor)],
        ["Left to allocate", m(p.unallocated_minor)],
      ]}
    />
  );
}
