import { ROLE_PERMISSIONS, type Permission, type Role } from "@/lib/auth/permissions";

// What a signed-in role may do: the dashboard hides controls a role cannot use. The API
// enforces the same table (403 insufficient_permission) whatever the page shows.
export const can = (role: Role, permission: Permission): boolean => ROLE_PERMISSIONS[role].includes(permission);
