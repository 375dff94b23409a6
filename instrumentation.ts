// Next.js instrumentation: runs once when a server instance starts. On the Node.js runtime
// it starts the in-process webhook worker (WEBHOOK_WORKER=on|off).
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startWebhookWorker } = await import("@/lib/webhooks/worker");
  startWebhookWorker();
}
