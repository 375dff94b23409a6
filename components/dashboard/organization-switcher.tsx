"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { FeedbackMessage } from "@/components/ui/feedback";
import { btn, field } from "@/components/ui/styles";
import { useMutation } from "@/components/ui/use-mutation";

// POST /session/organization: the account's other organizations, for a person who belongs
// to more than one. The new session replaces this one; the dashboard opens afresh.
export function OrganizationSwitcher({ current, organizations }: { current: string; organizations: { id: string; name: string }[] }) {
  const router = useRouter();
  const [chosen, setChosen] = useState(current);
  const { submit, pending, feedback } = useMutation();
  return (
    <form
      className="flex flex-wrap items-center gap-2"
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
      <label htmlFor="organization-switch" className="sr-only">
        Organization
      </label>
      <select
        id="organization-switch"
        value={chosen}
        onChange={(e) => setChosen(e.target.value)}
        className={`${field.input} mt-0 max-w-[16rem] py-1 font-semibold`}
      >
        {organizations.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name}
          </option>
        ))}
      </select>
      <button type="submit" className={btn.small} disabled={pending || chosen === current}>
        Switch<span className="sr-only"> organization</span>
      </button>
      <FeedbackMessage feedback={feedback} />
    </form>
  );
}
