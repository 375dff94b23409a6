import Link from "next/link";

// The settings sections a role can use; owners and admins see administration too.
export function SettingsNav({ admin, current }: { admin: boolean; current: "account" | "api-keys" | "members" | "payment-instructions" | "reminders" }) {
  const items = [
    { key: "account", href: "/dashboard/settings/account", label: "Your account" },
    ...(admin
      ? [
          { key: "api-keys", href: "/dashboard/settings/api-keys", label: "API keys" },
          { key: "members", href: "/dashboard/settings/members", label: "Members" },
          { key: "payment-instructions", href: "/dashboard/settings/payment-instructions", label: "Payment instructions" },
          { key: "reminders", href: "/dashboard/settings/reminders", label: "Reminders" },
        ]
      : []),
  ];
  return (
    <nav aria-label="Settings" className="flex flex-wrap gap-1 text-sm">
      {items.map((i) => (
        <Link
          key={i.key}
          href={i.href}
          aria-current={i.key === current ? "page" : undefined}
          className={`rounded-md px-3 py-1.5 ${i.key === current ? "bg-slate-900 font-medium text-white" : "border border-slate-300 bg-white text-slate-800 hover:bg-slate-50"}`}
        >
          {i.label}
        </Link>
      ))}
    </nav>
  );
}

export function NotAllowed({ role, title }: { role: string; title: string }) {
  return (
    <div className="max-w-2xl">
      <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
      <p role="alert" className="mt-4 rounded-md border border-amber-200 bg-amber-50 px-4 py-3 text-amber-900">
        Your role ({role}) cannot manage the organization. Ask an owner or admin.
      </p>
    </div>
  );
}
