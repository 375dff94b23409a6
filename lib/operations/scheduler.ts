import { defineOperation } from "@/lib/http/operation";
import { ZSchedulerSummary } from "@/lib/schemas/scheduler";

export const cronSchedulerOp = defineOperation({
  operationId: "cronSweepScheduler",
  method: "GET",
  path: "/cron/scheduler",
  summary: "Sweep scheduled events (for a scheduler)",
  description:
    "For a scheduler such as Vercel Cron, in deployments without long-running processes: `Authorization: Bearer $CRON_SECRET`. Runs the sweep every instance also runs on its own every SCHEDULER_INTERVAL_MS: claims obligations whose next scheduled date (UTC) has arrived, in batches of SCHEDULER_BATCH_SIZE (default 100) with `FOR UPDATE SKIP LOCKED`, records what is due (obligation.term_payable, obligation.due, obligation.overdue — held back while a dispute is open —, payment_request.expiring, promise.kept, promise.broken; each exactly once per obligation and term, threshold or link issue, also with overlapping calls and any number of instances) and commits per batch. Works for at most about 20 s or 50 batches' worth of obligations (batches go organization by organization), then returns what it did with `more: true`: call again to drain a backlog. Answers 404 `not_found` while CRON_SECRET is not configured and 401 `unauthenticated` for a missing or wrong secret.",
  tags: ["System"],
  auth: "cron",
  success: {
    status: 200,
    description: "What this sweep did",
    schema: ZSchedulerSummary,
    example: {
      claimed: 3,
      emitted: {
        "obligation.term_payable": 1,
        "obligation.due": 1,
        "obligation.overdue": 2,
        "payment_request.expiring": 0,
        "promise.kept": 0,
        "promise.broken": 0,
      },
      duration_ms: 41,
      more: false,
    },
  },
  errors: [401, 404],
});

export const schedulerOperations = [cronSchedulerOp];
