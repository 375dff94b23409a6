import Link from "next/link";
import type { ReactNode } from "react";
import { link } from "@/components/ui/styles";

// The top of every dashboard page: an optional link back to the list, the one h1, a line
// under it, and actions on the right (e.g. "New obligation").
export function PageHeader(props: {
  title: ReactNode;
  description?: ReactNode;
  back?: { href: string; label: string };
  actions?: ReactNode;
  className?: string;
}) {
  return (
    <div className={`flex flex-wrap items-end justify-between gap-3 ${props.className ?? ""}`}>
      <div className="min-w-0">
        {props.back && (
          <p className="text-sm">
            <Link href={props.back.href} className={link}>
              {props.back.label}
            </Link>
          </p>
        )}
        <h1 className={`${props.back ? "mt-1 " : ""}break-words text-2xl font-semibold tracking-tight`}>{props.title}</h1>
        {props.description && <p className="mt-1 text-sm text-slate-600">{props.description}</p>}
      </div>
      {props.actions}
    </div>
  );
}
