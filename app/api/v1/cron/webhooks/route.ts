import { handle } from "@/lib/http/handle";
import { cronWebhooksOp } from "@/lib/operations/webhooks";
import { flushWebhooks } from "@/lib/webhooks/flush";
import { notServed } from "@/lib/http/not-served";

export const dynamic = "force-dynamic";

// GET /cron/webhooks – flush due webhook deliveries (Bearer CRON_SECRET)
export const GET = handle(cronWebhooksOp, async () => ({ status: 200, body: await flushWebhooks({ budgetMs: 20_000 }) }));

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { POST, PUT, PATCH, DELETE } = notServed("GET");
