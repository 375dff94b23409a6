import { card } from "@/components/ui/styles";

// A titled panel of a dashboard page; `id` makes it a landmark target for in-page links.
export function Section(props: {
  title: string;
  id?: string;
  description?: React.ReactNode;
  actions?: React.ReactNode;
  children: React.ReactNode;
  className?: string;
}) {
  const headingId = props.id ? `${props.id}-title` : undefined;
  return (
    <section id={props.id} aria-labelledby={headingId} className={`${card} p-4 sm:p-5 ${props.className ?? ""}`}>
      <div className="mb-3 flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h2 id={headingId} className="text-base font-semibold text-slate-900">
            {props.title}
          </h2>
          {props.description && <p className="mt-0.5 text-sm text-slate-600">{props.description}</p>}
        </div>
        {props.actions}
      </div>
      {props.children}
    </section>
  );
}

export function Empty({ children }: { children: React.ReactNode }) {
  return <p className="rounded-md border border-dashed border-slate-300 px-3 py-4 text-center text-sm text-slate-600">{children}</p>;
}

export function ReadOnlyNotice() {
  return (
    <p className="rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm text-slate-700">
      You have read-only access (viewer). Ask an owner or admin if you need to make changes.
    </p>
  );
}
