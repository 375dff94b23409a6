import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { TEST_CRON_SECRET } from "./server";

// Real HTTP receivers on 127.0.0.1 for webhook tests, and helpers to drive flushers.

export type Received = { at: number; headers: http.IncomingHttpHeaders; body: string; path: string; responded: boolean };

export type Reply = { status: number; headers?: Record<string, string>; delayMs?: number };
export type ReplyFn = (r: Received, index: number) => Reply;

export type Receiver = {
  url: string;
  port: number;
  received: Received[];
  reply: ReplyFn;
  close: () => Promise<void>;
};

export async function startReceiver(reply: ReplyFn = () => ({ status: 200 })): Promise<Receiver> {
  const received: Received[] = [];
  const rcv = { received, reply } as Receiver;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const r: Received = { at: Date.now(), headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), path: req.url ?? "", responded: false };
      const index = received.push(r) - 1;
      const out = rcv.reply(r, index);
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(out.status, { "content-type": "text/plain", ...out.headers });
        res.end("ok");
        r.responded = true;
      };
      if (out.delayMs) setTimeout(send, out.delayMs);
      else send();
    });
  });
  const sockets = new Set<import("node:net").Socket>();
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  rcv.port = port;
  rcv.url = `http://127.0.0.1:${port}/hooks`;
  rcv.close = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  return rcv;
}

// The Standard Webhooks reference verifier, constructed as its docs require: with the
// secret's bytes base64-encoded (our HMAC key is the UTF-8 bytes of the registered secret).
export function verifier(secret: string): Webhook {
  return new Webhook(Buffer.from(secret, "utf8").toString("base64"));
}

export function verify(secret: string, r: Received): unknown {
  return verifier(secret).verify(r.body, {
    "webhook-id": String(r.headers["webhook-id"]),
    "webhook-timestamp": String(r.headers["webhook-timestamp"]),
    "webhook-signature": String(r.headers["webhook-signature"]),
  });
}

export async function cronFlush(baseUrl: string, secret = TEST_CRON_SECRET): Promise<{ status: number; body: any }> {
  const res = await fetch(`${baseUrl}/api/v1/cron/webhooks`, { headers: { authorization: `Bearer ${secret}` } });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

// Calls the cron flusher of `baseUrl` every `everyMs` until `done()` holds.
export async function flushUntil(baseUrl: string, done: () => Promise<boolean> | boolean, opts: { timeoutMs?: number; everyMs?: number } = {}): Promise<void> {
  const deadline = Date.now() + (opts.timeoutMs ?? 30_000);
  for (;;) {
    const r = await cronFlush(baseUrl);
    if (r.status !== 200) throw new Error(`cron flush answered ${r.status}: ${JSON.stringify(r.body)}`);
    if (await done()) return;
    if (Date.now() > deadline) throw new Error("flushUntil: timed out");
    await sleep(opts.everyMs ?? 150);
  }
}

export async function waitUntil(done: () => Promise<boolean> | boolean, timeoutMs = 30_000, everyMs = 100): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error("waitUntil: timed out");
    await sleep(everyMs);
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export const SECRET = "whsec-test-0123456789abcdef-0123456789abcdef";
