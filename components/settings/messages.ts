import type { ApiError } from "@/lib/client/api";
import { describeApiError } from "@/lib/client/errors";

// Administration errors whose API message is itself the clearest wording (last owner,
// duplicate member, an admin touching an owner).
export function describeAdminError(e: ApiError): string {
  if (e.code === "invalid_state") return `Not possible: ${e.message}.`;
  if (e.code === "duplicate") return e.message.replace(/^body\.email: /, "");
  if (e.code === "insufficient_permission") return `Not allowed: ${e.message}.`;
  return describeApiError(e);
}
