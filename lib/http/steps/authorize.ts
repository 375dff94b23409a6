import { AppError } from "@/lib/errors";
import type { Operation } from "@/lib/http/operation";
import { ROLE_PERMISSIONS } from "@/lib/auth/permissions";
import type { Principal } from "@/lib/auth/principal";

// The operation's permission: an API key by its scopes, a person by their role.
export function authorize(op: Operation, p: Principal): void {
  if (!op.permission) return;
  if (p.kind === "api_key" && !(p.scopes as readonly string[]).includes(op.permission)) {
    throw new AppError("insufficient_scope", `this API key lacks the ${op.permission} scope`);
  }
  if (p.kind === "user" && !ROLE_PERMISSIONS[p.role].includes(op.permission)) {
    throw new AppError("insufficient_permission", `the ${p.role} role lacks the ${op.permission} permission`);
  }
}
