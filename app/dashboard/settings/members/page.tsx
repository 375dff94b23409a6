import type { Metadata } from "next";
import { requireUser } from "@/lib/auth/current-user";
import { db } from "@/lib/db/client";
import { ADMINISTRATION, ROLES, type Role } from "@/lib/auth/permissions";
import { can } from "@/lib/dashboard/permissions";
import { listMembers } from "@/lib/administration/list-members";
import { listResettableMembers } from "@/lib/administration/list-resettable-members";
import { Section } from "@/components/ui/section";
import { NotAllowed, SettingsNav } from "@/components/settings/settings-nav";
import { NewMemberForm } from "@/components/settings/new-member-form";
import { MemberActions } from "@/components/settings/member-actions";
import { InvitationActions } from "@/components/settings/invitation-actions";
import { PasswordResetButton } from "@/components/settings/password-reset-button";
import { ROLE_HELP, ROLE_LABELS } from "@/components/settings/roles";

export const metadata: Metadata = { title: "Members" };

export default async function MembersPage() {
  const user = await requireUser();
  if (!can(user.role, ADMINISTRATION)) return <NotAllowed role={user.role} title="Members" />;
  const [{ items: all }, resettable] = await Promise.all([
    listMembers(db(), { organizationId: user.organizationId, limit: 100, offset: 0 }),
    listResettableMembers(db(), { organizationId: user.organizationId }),
  ]);
  const items = all.filter((m) => m.status === "active");
  const invited = all.filter((m) => m.status === "invited");
  const owners = items.filter((m) => m.role === "owner").length;
  // Only an owner grants or takes away the owner role (the API enforces the same).
  const grantable: Role[] = user.role === "owner" ? [...ROLES] : ROLES.filter((r) => r !== "owner");
  return (
    <div className="space-y-6">
      <div className="space-y-3">
        <h1 className="text-2xl font-semibold tracking-tight">Members</h1>
        <SettingsNav admin current="members" />
      </div>
      <Section title="Invite a member" id="add-member">
        <NewMemberForm roles={grantable} />
      </Section>
      {invited.length > 0 && (
        <Section title="Pending invitations" id="invitations" description={`${invited.length} not accepted yet`}>
          <ul className="divide-y divide-slate-100">
            {invited.map((m) => (
              <li key={m.id} className="space-y-2 py-3">
                <div className="min-w-0">
                  <p className="break-all font-medium text-slate-900">{m.email}</p>
                  <p className="text-xs text-slate-600">Invited as {ROLE_LABELS[m.role]}</p>
                </div>
                {m.role === "owner" && user.role !== "owner" ? (
                  <p className="text-sm text-slate-600">Only an owner can change an owner's invitation.</p>
                ) : (
                  <InvitationActions id={m.id} email={m.email} />
                )}
              </li>
            ))}
          </ul>
        </Section>
      )}
      <Section title="Members" id="member-list" description={`${items.length} ${items.length === 1 ? "person" : "people"}`}>
        <ul className="divide-y divide-slate-100">
          {items.map((m) => (
            <li key={m.id} className="space-y-2 py-3">
              <div className="min-w-0">
                <p className="break-all font-medium text-slate-900">
                  {m.name || m.email}
                  {m.user_id === user.userId && <span className="ml-2 text-xs font-normal text-slate-600">(you)</span>}
                </p>
                {m.name && <p className="break-all text-sm text-slate-700">{m.email}</p>}
                <p className="text-xs text-slate-600">
                  {ROLE_LABELS[m.role]} · {m.password_set ? "password" : "single sign-on only"}
                </p>
              </div>
              {m.role === "owner" && user.role !== "owner" ? (
                <p className="text-sm text-slate-600">Only an owner can change an owner.</p>
              ) : (
                <>
                  <MemberActions id={m.id} email={m.email} role={m.role} roles={grantable} lastOwner={m.role === "owner" && owners === 1} />
                  {resettable.has(m.id) && m.user_id !== user.userId && <PasswordResetButton id={m.id} email={m.email} />}
                </>
              )}
            </li>
          ))}
        </ul>
      </Section>
      <Section title="Roles" id="roles">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">What each role may do</caption>
          <thead>
            <tr className="border-b border-slate-200">
              <th scope="col" className="py-1.5 pr-3 font-medium">
                Role
              </th>
              <th scope="col" className="py-1.5 font-medium">
                May
              </th>
            </tr>
          </thead>
          <tbody>
            {ROLES.map((r) => (
              <tr key={r} className="border-b border-slate-100">
                <th scope="row" className="py-1.5 pr-3 font-medium">
                  {ROLE_LABELS[r]}
                </th>
                <td className="py-1.5 text-slate-700">{ROLE_HELP[r]}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Section>
    </div>
  );
}
