import type { Role } from "@/lib/auth/permissions";

export const ROLE_LABELS: Record<Role, string> = { owner: "Owner", admin: "Admin", member: "Member", viewer: "Viewer" };

export const ROLE_HELP: Record<Role, string> = {
  owner: "Everything, including managing owners",
  admin: "Everything except granting or removing the owner role",
  member: "Obligations, payments and contexts; no webhooks or administration",
  viewer: "Read only",
};
