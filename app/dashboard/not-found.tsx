import Link from "next/link";

export default function DashboardNotFound() {
  return (
    <div className="max-w-xl">
      <h1 className="text-2xl font-semibold tracking-tight">Not found</h1>
      <p className="mt-2 text-slate-700">It does not exist, or it belongs to another organization.</p>
      <p className="mt-4">
        <Link href="/dashboard/obligations" className="text-brand-700 underline">
          Back to obligations
        </Link>
      </p>
    </div>
  );
}
