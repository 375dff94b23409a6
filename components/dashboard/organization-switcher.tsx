"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { FeedbackMessage } from "@/components/ui/feedback";
import { btn } from "@/components/ui/styles";
import { useMutation } from "@/components/ui/use-mutation";

// POST /session/organization: the account's other organizations, for a person who belongs
// to more than one. The new session replaces this one; the dashboard opens afresh.
export function OrganizationSwitcher({ current, organizations }: { current: string; organizations: { id: string; name: string }[] }) {
  const router = useRouter();
  const [chosen, setChosen] = useState(current);
  const { submit, pending, feedback } = useMutation();
  return (
    <form
      className="space-y-1"
      aria-label="Switch organization"
      onSubmit={async (e) => {
        e.preventDefault();
        const r = await submit({ path: "/session/organization", body: { organization_id: chosen }, refresh: false });
        if (r.ok) {
          router.replace("/dashboard");
          router.refresh();
        }
      }}
    >
      <div className="flex items-center gap-2">
        <label htmlFor="organization-switch" className="sr-only">
          Organization
        </label>
        <select
          id="organization-switch"
          value={chosen}
          onChange={(e) => setChosen(e.target.value)}
          className="block min-w-0 max-w-[12rem] rounded-md border border-slate-300 bg-white px-2 py-1 text-base font-semibold text-slate-900 shadow-xs sm:max-w-[16rem] sm:text-sm"
        >
          {organizations.map((o) => (
            <option key={o.id} value={o.id}>
              {o.name}
            </option>
          ))}
        </select>
        <button type="submit" className={`${btn.small} shrink-0`} disabled={pending || chosen === current}>
          Switch<span className="sr-only"> organization</span>
        </button>
      </div>
      <FeedbackMessage feedback={feedback} />
    </form>
  );
}
