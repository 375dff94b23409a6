import { z } from "zod";
import { ZTimestamp } from "@/lib/schemas/common";

export const ZLoginInput = z.strictObject({
  email: z.string().min(3).max(320),
  password: z.string().min(1).max(1024),
});
export type TLoginInput = z.infer<typeof ZLoginInput>;

export const ZPasswordChangeInput = z.strictObject({
  current_password: z.string().min(1).max(1024),
  new_password: z.string().min(12, "must be at least 12 characters").max(1024),
});

export const ZSession = z.strictObject({
  user: z.strictObject({ id: z.string(), email: z.string(), name: z.string() }),
  organization: z.strictObject({ id: z.string(), name: z.string() }),
  role: z.enum(["owner", "admin", "member", "viewer"]),
  expires_at: ZTimestamp,
});
export type TSession = z.infer<typeof ZSession>;
