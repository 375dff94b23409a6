import { handle } from "@/lib/http/handle";
import { cronWebhooksOp } from "@/lib/operations/webhooks";
import { flushWebhooks } from "@/lib/webhooks/flush";

export const dynamic = "force-dynamic";

// GET /cron/webhooks – flush due webhook deliveries (Bearer CRON_SECRET)
export const GET = handle(cronWebhooksOp, async () => ({ status: 200, body: await flushWebhooks({ budgetMs: 20_000 }) }));
