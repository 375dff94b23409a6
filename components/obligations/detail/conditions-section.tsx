import { formatDay } from "@/lib/dashboard/format";
import { Section } from "@/components/ui/section";
import { Pill } from "@/components/ui/status-badge";
import { ConditionActions } from "@/components/obligations/condition-actions";
import type { SectionProps } from "@/components/obligations/detail/types";

// The conditions the terms wait on, with satisfy/waive for those still waiting.
export function ConditionsSection({ o, locale, canWrite, today }: SectionProps & { today: string }) {
  return (
    <Section title="Conditions" id="conditions" description={o.conditions.length ? undefined : "No conditions."}>
      {o.conditions.length > 0 && (
        <ul className="divide-y divide-slate-100">
          {o.conditions.map((c) => (
            <li key={c.id} className="space-y-2 py-2.5">
              <div className="flex flex-wrap items-start justify-between gap-2">
                <div className="min-w-0">
                  <p className="font-medium">{c.label}</p>
                  <p className="text-sm text-slate-600">
                    {c.key}
                    {c.satisfied_on ? ` · ${c.status === "waived" ? "waived" : "satisfied"} ${formatDay(c.satisfied_on, locale)}` : ""}
                    {c.evidence_reference ? ` · evidence ${c.evidence_reference}` : ""}
                    {c.source ? ` · ${c.source}` : ""}
                  </p>
                </div>
                <Pill tone={c.status === "waiting" ? "amber" : "emerald"}>
                  {c.status === "waiting" ? "Waiting" : c.status === "waived" ? "Waived" : "Satisfied"}
                </Pill>
              </div>
              {canWrite && <ConditionActions conditionId={c.id} label={c.label} today={today} waiting={c.status === "waiting"} />}
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}
