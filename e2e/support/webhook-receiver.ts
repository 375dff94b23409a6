import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { test } from "@playwright/test";
import { flushWebhooks } from "./dashboard";

export type Received = { headers: Record<string, string | string[] | undefined>; body: string };

// A local webhook receiver for the tests of the current scope (listening before them, closed
// after them): every request is kept in `received` and answered 204.
export function webhookReceiver() {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  test.beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  });
  test.afterAll(async () => {
    await new Promise<void>((r) => server.close(() => r()));
  });
  return {
    received,
    url: (path: string) => `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    // Flushes the due deliveries (the cron route) and says how many requests have arrived.
    flushed: async () => {
      await flushWebhooks();
      return received.length;
    },
  };
}
