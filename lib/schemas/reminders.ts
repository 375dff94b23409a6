import "@/lib/schemas/zod-setup";
import { z } from "zod";
import { ZMinorOut, ZTimestamp } from "@/lib/schemas/common";

// The reminder policy (docs/reminders.md, docs/reminders.md).
export const REMINDER_TONES = ["friendly", "firm", "final"] as const;
export type ReminderTone = (typeof REMINDER_TONES)[number];
export const REMINDER_CHANNELS = ["webhook", "email"] as const;
export type ReminderChannel = (typeof REMINDER_CHANNELS)[number];

const ZStep = z.strictObject({
  offset_days: z.number().int().min(-365).max(3650).meta({ description: "Days relative to the due date (negative: before it)" }),
  tone: z.enum(REMINDER_TONES),
});

const ZBasisPoints = z.number().int().min(0).max(100_000);

const ZInterest = z.strictObject({
  enabled: z.boolean(),
  reference_rate_basis_points: ZBasisPoints.meta({ description: "The reference rate, in basis points (1% = 100)" }),
  margin_basis_points: ZBasisPoints.meta({ description: "The margin added to it, in basis points (the Directive: at least 800)" }),
  fixed_compensation_minor: ZMinorOut.optional().meta({
    description: "Fixed compensation for recovery costs, in minor units of the obligation's currency (e.g. 4000: EUR 40)",
  }),
});

// A plain address check (linear: no nested quantifiers); the SMTP server has the last word.
const ZReplyTo = z
  .string()
  .max(320)
  .regex(/^$|^[^\s@]+@[^\s@]+$/, "must be an email address");

export const ZReminderPolicyInput = z
  .strictObject({
    enabled: z.boolean(),
    steps: z
      .array(ZStep)
      .max(10)
      .refine((s) => new Set(s.map((x) => x.offset_days)).size === s.length, "two steps cannot have the same offset_days"),
    channel: z.enum(REMINDER_CHANNELS),
    sender_name: z.string().max(120).optional(),
    reply_to: ZReplyTo.optional(),
    late_payment_interest: ZInterest.nullable().optional(),
  })
  .meta({ title: "ReminderPolicyInput" });
export type TReminderPolicyInput = z.infer<typeof ZReminderPolicyInput>;

export const ZReminderPolicy = z
  .strictObject({
    enabled: z.boolean(),
    steps: z.array(ZStep),
    channel: z.enum(REMINDER_CHANNELS),
    sender_name: z.string(),
    reply_to: z.string(),
    late_payment_interest: ZInterest.nullable(),
    updated_at: z.union([ZTimestamp, z.literal("")]).meta({ description: '"" while never set' }),
  })
  .meta({ title: "ReminderPolicy" });
export type TReminderPolicy = z.infer<typeof ZReminderPolicy>;
