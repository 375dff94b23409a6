import Link from "next/link";
import { currentUser } from "@/lib/auth/current-user";

// Shown for an unknown id, another organization's id, and a page the role may not use
// (requireUser({ permission })): the page does not tell which.
export default async function DashboardNotFound() {
  const user = await currentUser();
  return (
    <div className="max-w-xl">
      <h1 className="text-2xl font-semibold tracking-tight">Not found</h1>
      <p role="alert" className="mt-2 text-slate-700">
        It does not exist, it belongs to another organization, or your role{user ? ` (${user.role})` : ""} does not allow this page. Ask an owner or admin of
        your organization if you need access.
      </p>
      <p className="mt-4">
        <Link href="/dashboard/obligations" className="text-brand-700 underline">
          Back to obligations
        </Link>
      </p>
    </div>
  );
}
