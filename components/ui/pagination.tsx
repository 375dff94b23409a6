import Link from "next/link";

// Previous/next links over a limit/offset list.
export function Pagination(props: { basePath: string; limit: number; offset: number; shown: number; total?: number; params?: Record<string, string> }) {
  const { basePath, limit, offset, shown, total } = props;
  const href = (o: number) => {
    const q = new URLSearchParams({ ...(props.params ?? {}), ...(o > 0 ? { offset: String(o) } : {}), ...(limit !== 50 ? { limit: String(limit) } : {}) });
    const s = q.toString();
    return s ? `${basePath}?${s}` : basePath;
  };
  if (shown === 0 && offset === 0) return null;
  const hasPrev = offset > 0;
  const hasNext = total !== undefined ? offset + shown < total : shown === limit;
  const linkClass = "rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50";
  const disabledClass = "rounded-md border border-slate-200 px-3 py-1.5 text-sm text-slate-500";
  return (
    <nav aria-label="Pagination" className="mt-4 flex flex-wrap items-center justify-between gap-3">
      <p className="text-sm text-slate-600" aria-live="polite">
        {shown === 0 ? "No items" : `Showing ${offset + 1}–${offset + shown}${total !== undefined ? ` of ${total}` : ""}`}
      </p>
      <div className="flex gap-2">
        {hasPrev ? (
          <Link href={href(Math.max(0, offset - limit))} className={linkClass} rel="prev">
            Previous
          </Link>
        ) : (
          <span className={disabledClass} aria-disabled="true">
            Previous
          </span>
        )}
        {hasNext ? (
          <Link href={href(offset + limit)} className={linkClass} rel="next">
            Next
          </Link>
        ) : (
          <span className={disabledClass} aria-disabled="true">
            Next
          </span>
        )}
      </div>
    </nav>
  );
}
