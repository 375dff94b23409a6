import Link from "next/link";

export default function Home() {
  return (
    <main className="mx-auto max-w-2xl px-6 py-16">
      <h1 className="text-3xl font-semibold tracking-tight">Financial Obligations Service</h1>
      <p className="mt-3 text-slate-600">Track what you are owed and what you owe across systems. Counterparties act through a secure link, with no account.</p>
      <ul className="mt-8 space-y-2">
        <li>
          <Link className="text-brand-700 underline" href="/dashboard">
            Issuer dashboard
          </Link>
        </li>
        <li>
          <Link className="text-brand-700 underline" href="/docs">
            API reference
          </Link>
        </li>
      </ul>
    </main>
  );
}
