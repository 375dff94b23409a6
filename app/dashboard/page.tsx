import { requireUser } from "@/lib/auth/current-user";

export default async function Overview() {
  const user = await requireUser();
  return (
    <section>
      <h1 className="text-2xl font-semibold">Overview</h1>
      <p className="mt-2 text-slate-600">Signed in as {user.email}.</p>
    </section>
  );
}
