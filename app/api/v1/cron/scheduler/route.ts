import { handle } from "@/lib/http/handle";
import { cronSchedulerOp } from "@/lib/operations/scheduler";
import { sweepScheduled } from "@/lib/scheduler/sweep";
import { notServed } from "@/lib/http/not-served";

export const dynamic = "force-dynamic";

// GET /cron/scheduler – sweep due scheduled events (Bearer CRON_SECRET)
export const GET = handle(cronSchedulerOp, async () => ({ status: 200, body: await sweepScheduled({ budgetMs: 20_000 }) }));

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { POST, PUT, PATCH, DELETE } = notServed("GET");
