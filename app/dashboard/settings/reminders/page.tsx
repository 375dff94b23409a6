import type { Metadata } from "next";
import { requireUser } from "@/lib/auth/current-user";
import { ADMINISTRATION } from "@/lib/auth/permissions";
import { can } from "@/lib/dashboard/permissions";
import { NotAllowed, SettingsNav } from "@/components/settings/settings-nav";
import { db } from "@/lib/db/client";
import { getReminderPolicy } from "@/lib/reminders/get-reminder-policy";
import { Section } from "@/components/ui/section";
import { ReminderPolicyForm } from "@/components/reminders/reminder-policy-form";
import { requestLocale } from "@/lib/dashboard/locale";
import { formatTimestamp } from "@/lib/dashboard/format";

export const metadata: Metadata = { title: "Reminders" };

// Settings: when and how payers are reminded (owners and admins; docs/reminders.md).
export default async function RemindersSettingsPage() {
  const user = await requireUser();
  if (!can(user.role, ADMINISTRATION)) return <NotAllowed role={user.role} title="Reminders" />;
  const [policy, locale] = await Promise.all([getReminderPolicy(db(), { organizationId: user.organizationId }), requestLocale()]);
  return (
    <div className="max-w-3xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Reminders</h1>
        <div className="mt-3">
          <SettingsNav admin current="reminders" />
        </div>
        <p className="mt-1 text-sm text-slate-600">
          Reminders go to payers before and after the due date, in the language they use on the payment page, with the payment reference and your bank details.
          Each goes out once; an obligation that is paid gets no more.
        </p>
      </div>
      <Section title="Reminder policy" id="policy">
        <p className="mb-4 text-sm text-slate-600">
          {policy.updated_at ? (
            <>
              Last changed <time dateTime={policy.updated_at}>{formatTimestamp(policy.updated_at, locale)}</time>.
            </>
          ) : (
            "Not changed yet: the default below applies."
          )}
        </p>
        {/* not keyed by the policy's updated_at: a save's refresh would remount the form and take its "Saved" away */}
        <ReminderPolicyForm current={policy} />
      </Section>
    </div>
  );
}
