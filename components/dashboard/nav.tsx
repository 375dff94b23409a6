"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

export type NavItem = { href: string; label: string };

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
        </Link>
      ))}
      <a href="/docs" className="whitespace-nowrap rounded-md px-3 py-1.5 text-slate-700 hover:bg-slate-100">
        API docs
      </a>
    </nav>
  );
}
