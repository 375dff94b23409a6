"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

// count: a number shown next to the label (the inbox's unread items; 100 means "99+").
export type NavItem = { href: string; label: string; count?: number };

// The main navigation; the current section is marked for assistive technology too.
export function MainNav({ items }: { items: NavItem[] }) {
  const pathname = usePathname();
  const active = (href: string) => (href === "/dashboard" ? pathname === href : pathname === href || pathname.startsWith(`${href}/`));
  return (
    <nav aria-label="Main" className="-mx-1 flex flex-wrap gap-1 text-sm">
      {items.map((n) => (
        <Link
          key={n.href}
          href={n.href}
          aria-current={active(n.href) ? "page" : undefined}
          className={`whitespace-nowrap rounded-md px-3 py-1.5 ${active(n.href) ? "bg-brand-50 font-medium text-brand-900" : "text-slate-700 hover:bg-slate-100"}`}
        >
          {n.label}
          {n.count ? (
            <>
              {" "}
              <span aria-hidden="true" data-testid="nav-count" className="ml-1 rounded-full bg-brand-700 px-1.5 py-0.5 text-xs font-semibold text-white">
                {n.count > 99 ? "99+" : n.count}
              </span>
              <span className="sr-only">({n.count > 99 ? "more than 99" : n.count} unread)</span>
            </>
          ) : null}
        </Link>
      ))}
      <a href="/docs" className="whitespace-nowrap rounded-md px-3 py-1.5 text-slate-700 hover:bg-slate-100">
        API docs
      </a>
    </nav>
  );
}
