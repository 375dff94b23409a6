import Link from "next/link";
import { money } from "@/lib/dashboard/format";
import { Empty, Section } from "@/components/ui/section";
import { LinkContextForm } from "@/components/obligations/link-context-form";
import type { ObligationDetail } from "@/components/obligations/detail/types";
import { link } from "@/components/ui/styles";

// The business contexts the obligation is linked to, and the form to link another.
export function ContextsSection({ o, locale, options }: { o: ObligationDetail; locale: string; options: { id: string; label: string }[] }) {
  return (
    <Section title="Business contexts" id="contexts">
      {o.contexts.length === 0 ? (
        <Empty>Not linked to any context.</Empty>
      ) : (
        <ul className="space-y-2 text-sm">
          {o.contexts.map((c) => (
            <li key={c.id}>
              <Link href={`/dashboard/contexts/${c.id}`} className={`${link} font-medium`}>
                {c.name}
              </Link>
              <span className="text-slate-600">
                {" "}
                · {c.type_label}
                {c.reference ? ` ${c.reference}` : ""} · {c.relationship_type}
                {c.attributed_minor ? ` · ${money(c.attributed_minor, o.currency, locale)}` : ""}
              </span>
            </li>
          ))}
        </ul>
      )}
      {options.length > 0 && (
        <div className="mt-4 border-t border-slate-100 pt-4">
          <LinkContextForm currency={o.currency} options={options} />
        </div>
      )}
    </Section>
  );
}
