import Link from "next/link";
import { formatTimestamp } from "@/lib/dashboard/format";
import type { TBankStatement } from "@/lib/schemas/reconciliation";
import { Empty } from "@/components/ui/section";
import { link } from "@/components/ui/styles";

// Imported statements, newest first, each linking to its transactions.
export function StatementList({ items, locale }: { items: TBankStatement[]; locale: string }) {
  if (items.length === 0) return <Empty>No statement imported yet.</Empty>;
  return (
    <ul className="divide-y divide-slate-100" aria-label="Bank statements">
      {items.map((s) => (
        <li key={s.id} className="flex flex-wrap items-center justify-between gap-2 py-2.5">
          <div className="min-w-0">
            <Link href={`/dashboard/reconciliation/statements/${s.id}`} className={`${link} break-words font-medium`}>
              {s.format} · {s.account.iban || s.account.identifier || "account not named"}
              {s.period.from ? ` · ${s.period.from} to ${s.period.to}` : ""}
            </Link>
            <p className="text-xs text-slate-600">
              Imported <time dateTime={s.created_at}>{formatTimestamp(s.created_at, locale)}</time>
            </p>
          </div>
          <p className="text-sm tabular-nums text-slate-700">
            {s.entries} transactions · {s.payments_created} new · {s.duplicates_skipped} duplicates · {s.auto_allocated} allocated
          </p>
        </li>
      ))}
    </ul>
  );
}
