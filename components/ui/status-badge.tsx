import { STATUS_HELP, statusLabel } from "@/lib/dashboard/format";

const TONE: Record<string, string> = {
  OBLIGATION_CAPTURED: "bg-slate-100 text-slate-800 ring-slate-300",
  PAYMENT_REQUESTED: "bg-sky-50 text-sky-900 ring-sky-200",
  PAYMENT_CLAIMED: "bg-amber-50 text-amber-900 ring-amber-200",
  PARTIALLY_RECONCILED: "bg-violet-50 text-violet-900 ring-violet-200",
  RECONCILED: "bg-emerald-50 text-emerald-900 ring-emerald-200",
};

export function StatusBadge({ status }: { status: string }) {
  return (
    <span
      title={STATUS_HELP[status]}
      className={`inline-flex items-center whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${TONE[status] ?? TONE.OBLIGATION_CAPTURED}`}
    >
      {statusLabel(status)}
    </span>
  );
}

export function Pill({ children, tone = "slate" }: { children: React.ReactNode; tone?: "slate" | "rose" | "emerald" | "amber" | "sky" }) {
  const tones = {
    slate: "bg-slate-100 text-slate-800 ring-slate-300",
    rose: "bg-rose-50 text-rose-800 ring-rose-200",
    emerald: "bg-emerald-50 text-emerald-900 ring-emerald-200",
    amber: "bg-amber-50 text-amber-900 ring-amber-200",
    sky: "bg-sky-50 text-sky-900 ring-sky-200",
  };
  return (
    <span className={`inline-flex items-center whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${tones[tone]}`}>
      {children}
    </span>
  );
}
