import type { AgingSeries } from "@/lib/overview/age-receivables";
import type { CashSeries } from "@/lib/overview/expect-cash";
import { formatDay, money } from "@/lib/dashboard/format";

// Server-rendered bar charts: an <svg role="img"> named by its <title> and described by a
// <desc> that reads the values out, and the same numbers as a table below it (the table
// is the exact record; bar heights are only a picture of it).

type Bar = { short: string; value: bigint; tone: string };

const W = 320;
const H = 170;
const TOP = 18;
const BOTTOM = 24;

// value / max as a fraction with 1/1000 resolution: enough for pixels, exact bigint math.
const ratio = (v: bigint, max: bigint) => (max === 0n ? 0 : Number((v * 1000n) / max) / 1000);

function BarChart(props: { id: string; title: string; desc: string; bars: Bar[] }) {
  const { bars } = props;
  let max = 0n;
  for (const b of bars) if (b.value > max) max = b.value;
  const slot = W / bars.length;
  const barW = Math.min(40, slot * 0.7);
  const plot = H - TOP - BOTTOM;
  return (
    <svg
      viewBox={`0 0 ${W} ${H}`}
      role="img"
      aria-labelledby={`${props.id}-title ${props.id}-desc`}
      className="h-auto w-full max-w-md"
      preserveAspectRatio="xMidYMid meet"
    >
      <title id={`${props.id}-title`}>{props.title}</title>
      <desc id={`${props.id}-desc`}>{props.desc}</desc>
      <line x1={0} x2={W} y1={H - BOTTOM} y2={H - BOTTOM} stroke="#64748b" strokeWidth={1} />
      {bars.map((b, i) => {
        const h = Math.max(b.value > 0n ? 2 : 0, ratio(b.value, max) * plot);
        const x = i * slot + (slot - barW) / 2;
        return (
          <g key={b.short}>
            <rect x={x} y={H - BOTTOM - h} width={barW} height={h} rx={2} fill={b.tone} />
            <text x={i * slot + slot / 2} y={H - 8} textAnchor="middle" fontSize={11} fill="#334155">
              {b.short}
            </text>
          </g>
        );
      })}
    </svg>
  );
}

const roleText = (role: string) => (role === "creditor" ? "owed to you" : "you owe");
const AGING_SHORT = ["Not due", "1–30", "31–60", "61–90", "90+"];
const AGING_TONES = ["#0369a1", "#d97706", "#ea580c", "#dc2626", "#991b1b"];

export function AgingChart({ series, locale }: { series: AgingSeries; locale: string }) {
  const id = `aging-${series.organization_role}-${series.currency}`;
  const name = `Aging, ${roleText(series.organization_role)}, ${series.currency}`;
  const fmt = (m: string) => money(m, series.currency, locale);
  return (
    <div className="space-y-3">
      <BarChart
        id={id}
        title={`${name}: outstanding by days past the deadline`}
        desc={series.buckets.map((b) => `${b.label}: ${fmt(b.outstanding_minor)}`).join("; ")}
        bars={series.buckets.map((b, i) => ({ short: AGING_SHORT[i], value: BigInt(b.outstanding_minor), tone: AGING_TONES[i] }))}
      />
      <table className="w-full text-sm">
        <caption className="sr-only">{name}</caption>
        <thead className="border-b border-slate-200 text-left text-xs uppercase tracking-wide text-slate-700">
          <tr>
            <th scope="col" className="py-1.5 pr-2 font-medium">
              Past due
            </th>
            <th scope="col" className="py-1.5 pr-2 text-right font-medium">
              Count
            </th>
            <th scope="col" className="py-1.5 text-right font-medium">
              Outstanding
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {series.buckets.map((b, i) => (
            <tr key={b.key}>
              <th scope="row" className="py-1.5 pr-2 text-left font-normal [overflow-wrap:anywhere]">
                <span aria-hidden="true" className="mr-1.5 inline-block size-2.5 rounded-sm" style={{ background: AGING_TONES[i] }} />
                {b.label}
              </th>
              <td className="py-1.5 pr-2 text-right tabular-nums">{b.count}</td>
              <td className="whitespace-nowrap py-1.5 text-right tabular-nums">{fmt(b.outstanding_minor)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot className="border-t border-slate-300 font-medium">
          <tr>
            <th scope="row" className="py-1.5 pr-2 text-left">
              Total
            </th>
            <td className="py-1.5 pr-2 text-right tabular-nums">{series.buckets.reduce((n, b) => n + b.count, 0)}</td>
            <td className="whitespace-nowrap py-1.5 text-right tabular-nums">{fmt(series.total_minor)}</td>
          </tr>
        </tfoot>
      </table>
    </div>
  );
}

export function CashChart({ series, locale }: { series: CashSeries; locale: string }) {
  const id = `cash-${series.organization_role}-${series.currency}`;
  const name = `Cash expected, ${roleText(series.organization_role)}, ${series.currency}`;
  const fmt = (m: string) => money(m, series.currency, locale);
  const label = (p: CashSeries["periods"][number]) =>
    p.from && p.to
      ? `${p.label} (${formatDay(p.from, locale)} – ${formatDay(p.to, locale)})`
      : p.from
        ? `${p.label} (from ${formatDay(p.from, locale)})`
        : p.label;
  const charted = series.periods.filter((p) => p.in_chart);
  return (
    <div className="space-y-3">
      <BarChart
        id={id}
        title={`${name}: late and the next ${charted.length - 1} weeks`}
        desc={charted.map((p) => `${label(p)}: ${fmt(p.expected_minor)}`).join("; ")}
        bars={charted.map((p) => ({
          short: p.key === "late" ? "Late" : `W${p.key.slice(1)}`,
          value: BigInt(p.expected_minor),
          tone: p.key === "late" ? "#dc2626" : "#0369a1",
        }))}
      />
      <table className="w-full text-sm">
        <caption className="sr-only">{name}</caption>
        <thead className="border-b border-slate-200 text-left text-xs uppercase tracking-wide text-slate-700">
          <tr>
            <th scope="col" className="py-1.5 pr-2 font-medium">
              When
            </th>
            <th scope="col" className="py-1.5 pr-2 text-right font-medium">
              Count
            </th>
            <th scope="col" className="py-1.5 text-right font-medium">
              Expected
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {series.periods.map((p) => (
            <tr key={p.key} className={p.in_chart ? "" : "text-slate-600"}>
              <th scope="row" className="py-1.5 pr-2 text-left font-normal [overflow-wrap:anywhere]">
                {label(p)}
              </th>
              <td className="py-1.5 pr-2 text-right tabular-nums">{p.count}</td>
              <td className="whitespace-nowrap py-1.5 text-right tabular-nums">{fmt(p.expected_minor)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot className="border-t border-slate-300 font-medium">
          <tr>
            <th scope="row" className="py-1.5 pr-2 text-left">
              Total outstanding
            </th>
            <td className="py-1.5 pr-2" />
            <td className="whitespace-nowrap py-1.5 text-right tabular-nums">{fmt(series.total_minor)}</td>
          </tr>
        </tfoot>
      </table>
    </div>
  );
}
