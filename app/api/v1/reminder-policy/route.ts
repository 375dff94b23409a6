import { handle } from "@/lib/http/handle";
import { getReminderPolicyOp, putReminderPolicyOp } from "@/lib/operations/reminders";
import { getReminderPolicy } from "@/lib/reminders/get-reminder-policy";
import { putReminderPolicy } from "@/lib/reminders/put-reminder-policy";
import { notServed } from "@/lib/http/not-served";

// GET /reminder-policy – when and how payers are reminded
export const GET = handle(getReminderPolicyOp, async ({ tx, principal }) => ({
  status: 200,
  body: await getReminderPolicy(tx, { organizationId: principal.organizationId }),
}));

// PUT /reminder-policy – replace it (owner or admin session)
export const PUT = handle(putReminderPolicyOp, async ({ tx, principal, body }) => ({
  status: 200,
  body: await putReminderPolicy(tx, { organizationId: principal.organizationId, principal, body }),
}));

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { HEAD, POST, PATCH, DELETE } = notServed("GET", "PUT");
