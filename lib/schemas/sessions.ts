import { z } from "zod";
import { ZTimestamp, ZUuid } from "@/lib/schemas/common";

export const ZLoginInput = z.strictObject({
  email: z.string().min(3).max(320),
  password: z.string().min(1).max(1024),
  organization_id: ZUuid.optional().meta({
    description: "The organization to sign in to (one of the account's); without it, the organization the account used last",
  }),
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

export const ZSessionOrganization = z.strictObject({ id: z.string(), name: z.string(), role: z.enum(["owner", "admin", "member", "viewer"]) });

export const ZSessionDetail = ZSession.extend({
  organizations: z.array(ZSessionOrganization).meta({ description: "Every organization the account is an active member of, with its role there" }),
});
export type TSessionDetail = z.infer<typeof ZSessionDetail>;

export const ZSwitchOrganizationInput = z.strictObject({ organization_id: ZUuid });

export const ZInvitationAcceptInput = z.strictObject({
  token: z.string().min(1).max(200),
  password: z.string().min(1).max(1024).optional().meta({
    description:
      "A new account: its password (at least 12 characters). An account that exists: its current password, or none when the request carries that account's issuer session",
  }),
});
export type TInvitationAcceptInput = z.infer<typeof ZInvitationAcceptInput>;

export const ZPasswordResetCompleteInput = z.strictObject({
  token: z.string().min(1).max(200),
  new_password: z.string().min(12, "must be at least 12 characters").max(1024),
});
export type TPasswordResetCompleteInput = z.infer<typeof ZPasswordResetCompleteInput>;

export const ZLink = z.strictObject({
  url: z.string().meta({ description: "A one-time link; its token is in the fragment only. Shown once: keep it or issue another." }),
  expires_at: ZTimestamp,
});
export type TLink = z.infer<typeof ZLink>;
