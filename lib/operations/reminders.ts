import { defineOperation } from "@/lib/http/operation";
import { ADMINISTRATION } from "@/lib/auth/permissions";
import { ZReminderPolicy, ZReminderPolicyInput, type TReminderPolicy, type TReminderPolicyInput } from "@/lib/schemas/reminders";

const tags = ["Reminders"];

const RULES = [
  "**Steps.** `offset_days` counts from the due date of what is due (the earliest payable date of a payment term with something unpaid; without terms, the deadline); negative is before it. At each step, an obligation with something outstanding, not RECONCILED (and, once disputes and promises exist, without an open dispute or a promise whose date has not come) gets one reminder, exactly once per obligation and step. When several steps are reached at once (registered late, policy enabled later, a sweep after downtime) only the latest goes out; the earlier ones are recorded as skipped.",
  "**Channels.** `webhook`: event `obligation.reminder_due` with `data.reminder { step, offset_days, subject, text, html, language }` (no hosted URL: the consumer adds it). `email`: sent over SMTP (`SMTP_URL`, `SMTP_FROM`) to the debtor's email with the hosted URL, then `obligation.reminder_sent`, or `obligation.reminder_failed` with the SMTP answer and retries on the webhook retry schedule. Without a debtor email, the webhook event.",
  "**Interest** (information only; `amount_minor` never changes): simple daily interest on the overdue amount at reference rate + margin, as in Directive 2011/7/EU: overdue × (rate_bp / 10000) × days / 365, in minor units rounded half up; plus the fixed compensation.",
];

const EXAMPLE_INPUT: TReminderPolicyInput = {
  enabled: true,
  steps: [
    { offset_days: -3, tone: "friendly" },
    { offset_days: 1, tone: "friendly" },
    { offset_days: 7, tone: "firm" },
    { offset_days: 30, tone: "final" },
  ],
  channel: "email",
  sender_name: "Acme Receivables",
  reply_to: "receivables@acme.example",
  late_payment_interest: { enabled: true, reference_rate_basis_points: 215, margin_basis_points: 800, fixed_compensation_minor: "4000" },
};

const EXAMPLE: TReminderPolicy = {
  enabled: true,
  steps: EXAMPLE_INPUT.steps,
  channel: "email",
  sender_name: "Acme Receivables",
  reply_to: "receivables@acme.example",
  late_payment_interest: { enabled: true, reference_rate_basis_points: 215, margin_basis_points: 800, fixed_compensation_minor: "4000" },
  updated_at: "2026-11-28T09:00:00.000Z",
};

export const getReminderPolicyOp = defineOperation({
  operationId: "getReminderPolicy",
  method: "GET",
  path: "/reminder-policy",
  summary: "When and how payers are reminded",
  description: ['The organization\'s reminder policy; the default (disabled, no steps, `updated_at` "") until an owner or admin sets it.', ...RULES].join(
    "\n\n",
  ),
  tags,
  auth: "issuer",
  permission: "obligations:read",
  success: { status: 200, description: "The policy", schema: ZReminderPolicy, example: EXAMPLE },
});

export const putReminderPolicyOp = defineOperation({
  operationId: "putReminderPolicy",
  method: "PUT",
  path: "/reminder-policy",
  summary: "Set when and how payers are reminded",
  description: [
    "Replaces the policy. Issuer session of an owner or admin only: an API key is refused with 403 `insufficient_scope` (no key carries the administration permission), the member and viewer roles with 403 `insufficient_permission`. Event `reminder_policy.updated`.",
    ...RULES,
  ].join("\n\n"),
  tags,
  auth: "issuer",
  permission: ADMINISTRATION,
  idempotent: "required",
  body: ZReminderPolicyInput,
  bodyExample: EXAMPLE_INPUT,
  success: { status: 200, description: "The stored policy", schema: ZReminderPolicy, example: EXAMPLE },
});

export const reminderOperations = [getReminderPolicyOp, putReminderPolicyOp];
