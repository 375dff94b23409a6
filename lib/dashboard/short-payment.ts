import { money } from "@/lib/dashboard/format";
import { shortWithinTolerance } from "@/lib/reconciliation/engine";
import type { TReconciliationSettings, TSuggestion } from "@/lib/schemas/reconciliation";

export type ShortPayment = { shortBy?: string; toleranceKind?: "bank_fee" | "discount" };

// What accepting a suggestion leaves open, in words, and the credit the organization's
// tolerance makes of it by default (the server's rule in lib/reconciliation/accept-suggestion.ts:
// one allocation, short within the tolerance), so the clerk sees that choice preselected.
export function shortPayment(s: Pick<TSuggestion, "allocations">, settings: TReconciliationSettings, currency: string, locale: string): ShortPayment {
  const rest = s.allocations.reduce((sum, a) => sum + (BigInt(a.outstanding_minor) - BigInt(a.amount_minor)), 0n);
  if (rest <= 0n) return {};
  const t = settings.tolerance;
  const [only] = s.allocations;
  const covered =
    t && s.allocations.length === 1
      ? shortWithinTolerance(BigInt(only.amount_minor), BigInt(only.outstanding_minor), {
          maxMinor: BigInt(t.max_minor),
          maxBasisPoints: t.max_basis_points,
          kind: t.kind,
        })
      : null;
  return { shortBy: money(rest.toString(), currency, locale), ...(covered ? { toleranceKind: covered.kind } : {}) };
}
