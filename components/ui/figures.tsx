import type { ReactNode } from "react";

// A row of key figures (amount, allocated, left to allocate...): a description list of
// cards. `className` sets the grid's columns (a literal Tailwind class at the call site).
export function Figures({
  items,
  className = "grid grid-cols-2 gap-3 sm:grid-cols-3",
}: {
  items: readonly (readonly [string, ReactNode])[];
  className?: string;
}) {
  return (
    <dl className={className}>
      {items.map(([k, v]) => (
        <div key={k} className="rounded-xl border border-slate-200 bg-white p-3">
          <dt className="text-xs font-medium uppercase tracking-wide text-slate-600">{k}</dt>
          <dd className="mt-1 text-lg font-semibold tabular-nums">{v}</dd>
        </div>
      ))}
    </dl>
  );
}
