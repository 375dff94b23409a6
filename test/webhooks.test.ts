import { randomUUID } from "node:crypto";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { Api, baseUrl } from "./support/api";
import { apiKeyWith, newOrg, signedIn, userWith, type OrgFixture } from "./support/fixtures";
import { startServer, type TestServer } from "./support/server";
import { SECRET, cronFlush, flushUntil, sleep, startReceiver, verify, waitUntil, type Receiver } from "./support/webhooks";
import { registration } from "./support/bodies";
import { recordPayment } from "./support/payments";
import { db } from "@/lib/db/client";
import { ZWebhookPayload } from "@/lib/schemas/webhooks";

// Webhooks end to end: the API, and delivery to real HTTP receivers on 127.0.0.1 by real
// flushers (the cron route of the global test server and of servers started here on the
// same database, and the in-process worker of a server killed with SIGKILL mid-flush).
// Test servers run with WEBHOOK_WORKER=off unless a test turns it on, so only the
// flushers a test calls deliver anything.

// An event of the organization: registering an obligation (POST /obligations) records
// `obligation.registered`; the mutation result's operation_id is the event id.
async function emitEvent(org: OrgFixture): Promise<{ id: string; obligationId: string }> {
  const r = await org.api.post("/obligations", registration());
  expect(r.status, r.text).toBe(201);
  expect(r.body.event_type).toBe("obligation.registered");
  return { id: r.body.operation_id, obligationId: r.body.obligation.id };
}

async function register(org: OrgFixture, url: string, secret = SECRET): Promise<string> {
  const r = await org.api.post("/webhook-endpoints", { url, secret });
  expect(r.status, r.text).toBe(201);
  return r.body.id;
}

async function deliveries(org: OrgFixture): Promise<any[]> {
  const r = await org.api.get("/webhook-deliveries");
  expect(r.status, r.text).toBe(200);
  return r.body.items;
}

async function deliveryOf(org: OrgFixture, eventId: string, endpointId?: string): Promise<any> {
  const d = (await deliveries(org)).find((x) => x.event_id === eventId && (!endpointId || x.endpoint_id === endpointId));
  if (!d) throw new Error(`no delivery for event ${eventId}`);
  return d;
}

async function endpointOf(org: OrgFixture, id: string): Promise<any> {
  const r = await org.api.get("/webhook-endpoints");
  expect(r.status).toBe(200);
  return r.body.items.find((e: any) => e.id === id);
}

const receivers: Receiver[] = [];
async function receiver(...args: Parameters<typeof startReceiver>): Promise<Receiver> {
  const r = await startReceiver(...args);
  receivers.push(r);
  return r;
}
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
});

describe("webhook endpoints API", () => {
  let org: OrgFixture;
  beforeAll(async () => {
    org = await newOrg("Webhook API Org");
  });

  it("registers an endpoint: 201 {id, url}; the secret is never returned and is stored sealed", async () => {
    const url = "http://127.0.0.1:9/hooks?team=a";
    const r = await org.api.post("/webhook-endpoints", { url, secret: SECRET });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), url });
    expect(r.text).not.toContain(SECRET);

    const list = await org.api.get("/webhook-endpoints");
    expect(list.status).toBe(200);
    expect(Object.keys(list.body)).toEqual(["items"]);
    const item = list.body.items.find((e: any) => e.id === r.body.id);
    expect(item).toEqual({
      id: r.body.id,
      url,
      enabled: true,
      disabled_reason: "",
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      last_success_at: "",
      last_failure_at: "",
      consecutive_failures: 0,
      event_types: [],
      failing_since: "",
      previous_secret_until: "",
    });
    expect(list.text).not.toContain(SECRET);

    const row = await db().webhookEndpoint.findFirstOrThrow({ where: { id: r.body.id } });
    expect(row.secretCiphertext).not.toContain(SECRET);
    expect(row.secretCiphertext).not.toContain(Buffer.from(SECRET).toString("base64"));
  });

  it("replays a registration with the same Idempotency-Key (one endpoint)", async () => {
    const key = `wh-${randomUUID()}`;
    const url = `http://127.0.0.1:9/replay-${randomUUID()}`;
    const a = await org.api.post("/webhook-endpoints", { url, secret: SECRET }, { idempotencyKey: key });
    const b = await org.api.post("/webhook-endpoints", { url, secret: SECRET }, { idempotencyKey: key });
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.headers.get("idempotent-replayed")).toBe("true");
    expect(b.text).toBe(a.text);
    const list = await org.api.get("/webhook-endpoints");
    expect(list.body.items.filter((e: any) => e.url === url)).toHaveLength(1);
  });

  it("validates the registration strictly (422 validation_failed naming the field)", async () => {
    const cases: [unknown, string][] = [
      [{ url: "http://127.0.0.1:9/x", secret: SECRET, events: ["*"] }, "body.events"],
      [{ url: "http://127.0.0.1:9/x", secret: "s".repeat(31) }, "body.secret"],
      [{ url: "http://127.0.0.1:9/x", secret: "s".repeat(257) }, "body.secret"],
      [{ url: "ftp://127.0.0.1/x", secret: SECRET }, "body.url"],
      [{ url: "javascript:alert(1)", secret: SECRET }, "body.url"],
      [{ url: "not a url", secret: SECRET }, "body.url"],
      [{ url: "http://user:pass@127.0.0.1:9/x", secret: SECRET }, "body.url"],
      [{ secret: SECRET }, "body.url"],
      [{ url: "http://127.0.0.1:9/x" }, "body.secret"],
    ];
    for (const [body, field] of cases) {
      const r = await org.api.post("/webhook-endpoints", body);
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(r.body.error.code).toBe("validation_failed");
      expect(r.body.error.message).toContain(field);
      expect(r.text).not.toContain(SECRET);
    }
    expect((await org.api.post("/webhook-endpoints", { url: "http://127.0.0.1:9/x", secret: "s".repeat(32) })).status).toBe(201);
    expect((await org.api.post("/webhook-endpoints", { url: "https://127.0.0.1:9/x", secret: "s".repeat(256) })).status).toBe(201);
    const noKey = await org.api.post("/webhook-endpoints", { url: "http://127.0.0.1:9/x", secret: SECRET }, { idempotencyKey: null });
    expect(noKey.status).toBe(400);
    expect(noKey.body.error.code).toBe("idempotency_key_required");
  });

  it("requires webhooks:read / webhooks:write (scopes for API keys, permissions for roles)", async () => {
    const readOnly = await apiKeyWith(org, ["webhooks:read"]);
    const noWebhooks = await apiKeyWith(org, ["obligations:read", "obligations:write"]);
    expect((await readOnly.get("/webhook-endpoints")).status).toBe(200);
    expect((await readOnly.get("/webhook-deliveries")).status).toBe(200);
    const w = await readOnly.post("/webhook-endpoints", { url: "http://127.0.0.1:9/x", secret: SECRET });
    expect(w.status).toBe(403);
    expect(w.body.error.code).toBe("insufficient_scope");
    for (const r of [await noWebhooks.get("/webhook-endpoints"), await noWebhooks.get("/webhook-deliveries")]) {
      expect(r.status).toBe(403);
      expect(r.body.error.code).toBe("insufficient_scope");
    }
    const retry = await readOnly.post(`/webhook-deliveries/${randomUUID()}/retry`);
    expect(retry.status).toBe(403);

    const member = await signedIn((await userWith(org, "member")).email);
    const m = await member.get("/webhook-endpoints");
    expect(m.status).toBe(403);
    expect(m.body.error.code).toBe("insufficient_permission");
    const viewer = await signedIn((await userWith(org, "viewer")).email);
    expect((await viewer.get("/webhook-deliveries")).status).toBe(200);
    const v = await viewer.post("/webhook-endpoints", { url: "http://127.0.0.1:9/x", secret: SECRET });
    expect(v.status).toBe(403);
    expect(v.body.error.code).toBe("insufficient_permission");
    const admin = await signedIn((await userWith(org, "admin")).email);
    expect((await admin.post("/webhook-endpoints", { url: "http://127.0.0.1:9/admin", secret: SECRET })).status).toBe(201);
    expect((await new Api(baseUrl()).get("/webhook-endpoints")).status).toBe(401);
  });

  it("queues one pending delivery per enabled endpoint for every event, visible only to its organization", async () => {
    const own = await newOrg("Outbox Org");
    const other = await newOrg("Other Org");
    const e1 = await register(own, "http://127.0.0.1:9/one");
    const e2 = await register(own, "http://127.0.0.1:9/two");
    const ev = await emitEvent(own);
    const items = (await deliveries(own)).filter((d) => d.event_id === ev.id);
    expect(items.map((d) => d.endpoint_id).sort()).toEqual([e1, e2].sort());
    for (const d of items) {
      expect(d).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        endpoint_id: expect.any(String),
        event_id: ev.id,
        event_type: "obligation.registered",
        status: "pending",
        attempts: 0,
        next_attempt_at: expect.stringMatching(/Z$/),
        last_attempt_at: "",
        last_response_status: null,
        last_error: "",
        created_at: expect.stringMatching(/Z$/),
      });
    }
    expect(await deliveries(other)).toEqual([]);
    expect((await other.api.get("/webhook-endpoints")).body.items).toEqual([]);
  });

  it("lists at most the 100 most recent deliveries, newest first", async () => {
    const o = await newOrg("Many Deliveries Org");
    await register(o, "http://127.0.0.1:9/many");
    const ids: string[] = [];
    for (let i = 0; i < 103; i++) ids.push((await emitEvent(o)).id);
    const items = await deliveries(o);
    expect(items).toHaveLength(100);
    expect(items[0].event_id).toBe(ids[102]);
    expect(items.map((d) => d.event_id)).not.toContain(ids[0]);
    const times = items.map((d) => Date.parse(d.created_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it("retry: 404 for unknown, malformed or foreign ids; 409 delivery_not_failed for a pending delivery; key required", async () => {
    const other = await newOrg("Foreign Org");
    await register(org, "http://127.0.0.1:9/retry-rules");
    const ev = await emitEvent(org);
    const d = await deliveryOf(org, ev.id);
    for (const path of [`/webhook-deliveries/${randomUUID()}/retry`, "/webhook-deliveries/not-a-uuid/retry"]) {
      const r = await org.api.post(path);
      expect(r.status).toBe(404);
      expect(r.body.error.code).toBe("not_found");
    }
    const foreign = await other.api.post(`/webhook-deliveries/${d.id}/retry`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe("not_found");
    const pending = await org.api.post(`/webhook-deliveries/${d.id}/retry`);
    expect(pending.status).toBe(409);
    expect(pending.body.error.code).toBe("delivery_not_failed");
    const noKey = await org.api.post(`/webhook-deliveries/${d.id}/retry`, undefined, { idempotencyKey: null });
    expect(noKey.status).toBe(400);
    expect(noKey.body.error.code).toBe("idempotency_key_required");
    const withBody = await org.api.post(`/webhook-deliveries/${d.id}/retry`, { force: true });
    expect(withBody.status).toBe(422);
  });

  it("documents the webhook operations and the cron route in the OpenAPI document", async () => {
    const doc = (await new Api(baseUrl()).get("/openapi.json")).body;
    expect(doc.paths["/webhook-endpoints"].post.requestBody.content["application/json"].schema.required).toEqual(["url", "secret"]);
    expect(doc.paths["/webhook-endpoints"].get.responses["200"]).toBeDefined();
    expect(
      doc.paths["/webhook-deliveries"].get.responses["200"].content["application/json"].schema.properties.items.items.properties.last_response_status,
    ).toBeDefined();
    expect(doc.paths["/webhook-deliveries/{id}/retry"].post.responses["204"]).toBeDefined();
    expect(doc.paths["/webhook-deliveries/{id}/retry"].post.responses["409"]).toBeDefined();
    expect(doc.paths["/cron/webhooks"].get.responses["401"]).toBeDefined();
    const hook = doc.webhooks.event.post;
    expect(hook.parameters.map((p: any) => p.name)).toEqual(["webhook-id", "webhook-timestamp", "webhook-signature"]);
    expect(hook.requestBody.content["application/json"].schema.required).toEqual(["id", "type", "created_at", "organization_id", "data"]);
    expect(hook.requestBody.content["application/json"].schema.properties.type.enum).toContain("payment.allocated");
  });
});

describe("webhook delivery (cron flusher of the test server)", () => {
  let org: OrgFixture;
  beforeAll(async () => {
    org = await newOrg("Delivery Org");
  });

  it("the cron route needs Bearer CRON_SECRET (401) and returns a summary", async () => {
    for (const authorization of [undefined, "Bearer wrong-secret-0123456789", "Basic abc"]) {
      const res = await fetch(`${baseUrl()}/api/v1/cron/webhooks`, { headers: authorization ? { authorization } : {} });
      expect(res.status).toBe(401);
      expect((await res.json()).error.code).toBe("unauthenticated");
    }
    const ok = await cronFlush(baseUrl());
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({
      claimed: expect.any(Number),
      succeeded: expect.any(Number),
      rescheduled: expect.any(Number),
      failed: expect.any(Number),
      lost_lease: expect.any(Number),
      duration_ms: expect.any(Number),
    });
  });

  it("delivers a Standard Webhooks signed request that the standardwebhooks library verifies", async () => {
    const rcv = await receiver();
    const endpointId = await register(org, rcv.url);
    const ev = await emitEvent(org);
    await flushUntil(baseUrl(), () => rcv.received.length >= 1);
    await sleep(200);
    expect(rcv.received).toHaveLength(1);
    const r = rcv.received[0];
    expect(r.headers["content-type"]).toBe("application/json");
    expect(r.headers["webhook-id"]).toBe(ev.id);
    expect(Number(r.headers["webhook-timestamp"])).toBeGreaterThan(Date.now() / 1000 - 60);
    expect(String(r.headers["webhook-signature"])).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    const payload = verify(SECRET, r) as any;
    expect(payload).toEqual({
      id: ev.id,
      type: "obligation.registered",
      created_at: expect.stringMatching(/Z$/),
      organization_id: org.organizationId,
      data: { obligation: expect.objectContaining({ id: ev.obligationId, organization_id: org.organizationId, version: 1, status: "OBLIGATION_CAPTURED" }) },
    });
    // The payload is exactly the documented WebhookEvent schema (the OpenAPI `webhooks` section).
    expect(ZWebhookPayload.safeParse(payload).error).toBeUndefined();
    // No audit-only detail and no hosted link (a bearer capability) in the payload.
    expect(r.body).not.toContain("detail");
    expect(r.body).not.toContain("/r/");
    // A wrong secret or a tampered body does not verify.
    expect(() => verify("x".repeat(40), r)).toThrow();
    expect(() => verify(SECRET, { ...r, body: r.body.replace("obligation.registered", "obligation.acknowledged") })).toThrow();

    await waitUntil(async () => (await deliveryOf(org, ev.id)).status === "succeeded");
    const d = await deliveryOf(org, ev.id);
    expect(d).toMatchObject({ status: "succeeded", attempts: 1, last_response_status: 200, last_error: "", next_attempt_at: "", endpoint_id: endpointId });
    expect(Date.parse(d.last_attempt_at)).toBeGreaterThan(0);
    const ep = await endpointOf(org, endpointId);
    expect(ep.last_success_at).not.toBe("");
    expect(ep.consecutive_failures).toBe(0);
    expect(JSON.stringify(rcv.received.map((x) => [x.headers, x.body]))).not.toContain(SECRET);
    expect(JSON.stringify(await deliveries(org))).not.toContain(SECRET);
    expect(JSON.stringify((await org.api.get("/webhook-endpoints")).body)).not.toContain(SECRET);
  });

  it("delivers the event of a later mutation too (mark_sent -> obligation.payment_requested, version 2)", async () => {
    const o = await newOrg("Mutation Events Org");
    const rcv = await receiver();
    await register(o, rcv.url);
    const created = await emitEvent(o);
    const sent = await o.api.post(`/obligations/${created.obligationId}/actions`, { action: "mark_sent", expected_version: 1 });
    expect(sent.status, sent.text).toBe(200);
    expect(sent.body.event_type).toBe("obligation.payment_requested");
    await flushUntil(baseUrl(), () => rcv.received.length >= 2);
    const payloads = rcv.received.map((r) => verify(SECRET, r) as any).sort((a, b) => a.data.obligation.version - b.data.obligation.version);
    expect(payloads.map((p) => [p.id, p.type, p.data.obligation.version, p.data.obligation.status])).toEqual([
      [created.id, "obligation.registered", 1, "OBLIGATION_CAPTURED"],
      [sent.body.operation_id, "obligation.payment_requested", 2, "PAYMENT_REQUESTED"],
    ]);
  });

  it("delivers payment events with data.payment (payment.recorded)", async () => {
    const o = await newOrg("Payment Events Org");
    const rcv = await receiver();
    await register(o, rcv.url);
    const payment = await recordPayment(o.api);
    await flushUntil(baseUrl(), () => rcv.received.length >= 1);
    const p = verify(SECRET, rcv.received[0]) as any;
    expect(p.type).toBe("payment.recorded");
    expect(p.organization_id).toBe(o.organizationId);
    expect(p.data.payment).toMatchObject({ id: payment.id, amount_minor: "100000", currency: "EUR" });
    expect(ZWebhookPayload.safeParse(p).error).toBeUndefined();
  });

  it("a failed attempt is rescheduled by the schedule; Retry-After postpones it", async () => {
    const o = await newOrg("Reschedule Org");
    const rcv = await receiver(() => ({ status: 503, headers: { "retry-after": "120" } }));
    const endpointId = await register(o, rcv.url);
    const before = Date.now();
    const ev = await emitEvent(o);
    await flushUntil(baseUrl(), async () => (await deliveryOf(o, ev.id)).attempts >= 1);
    const d = await deliveryOf(o, ev.id);
    expect(d).toMatchObject({ status: "pending", attempts: 1, last_response_status: 503 });
    expect(d.last_error).toMatch(/503/);
    // The default schedule would retry 5 s after the event; Retry-After: 120 wins.
    expect(Date.parse(d.next_attempt_at)).toBeGreaterThanOrEqual(before + 115_000);
    const ep = await endpointOf(o, endpointId);
    expect(ep.consecutive_failures).toBe(1);
    expect(ep.last_failure_at).not.toBe("");
    expect(ep.last_success_at).toBe("");
  });

  it("does not follow redirects: a 302 to another loopback receiver is a failure and the target is never contacted", async () => {
    const target = await receiver();
    const rcv = await receiver(() => ({ status: 302, headers: { location: target.url } }));
    const o = await newOrg("Redirect Org");
    await register(o, rcv.url);
    const ev = await emitEvent(o);
    await flushUntil(baseUrl(), async () => (await deliveryOf(o, ev.id)).attempts >= 1);
    const d = await deliveryOf(o, ev.id);
    expect(d).toMatchObject({ status: "pending", last_response_status: 302 });
    expect(d.last_error).toMatch(/redirect/i);
    expect(rcv.received).toHaveLength(1);
    expect(target.received).toHaveLength(0);
  });

  it("410 Gone disables the endpoint and fails what is queued; new events skip it; an explicit retry still sends", async () => {
    const o = await newOrg("Gone Org");
    let gone = true;
    const rcv = await receiver(() => ({ status: gone ? 410 : 200 }));
    const alive = await receiver();
    const goneId = await register(o, rcv.url);
    const aliveId = await register(o, alive.url);
    const ev = await emitEvent(o);
    await flushUntil(baseUrl(), async () => (await deliveryOf(o, ev.id, goneId)).status !== "pending" && alive.received.length >= 1);
    const d = await deliveryOf(o, ev.id, goneId);
    expect(d).toMatchObject({ status: "failed", attempts: 1, last_response_status: 410, next_attempt_at: "" });
    const ep = await endpointOf(o, goneId);
    expect(ep.enabled).toBe(false);
    expect(ep.disabled_reason).toMatch(/410/);
    expect((await endpointOf(o, aliveId)).enabled).toBe(true);

    const later = await emitEvent(o);
    const laterDeliveries = (await deliveries(o)).filter((x) => x.event_id === later.id);
    expect(laterDeliveries.map((x) => x.endpoint_id)).toEqual([aliveId]);

    gone = false;
    const retry = await o.api.post(`/webhook-deliveries/${d.id}/retry`);
    expect(retry.status).toBe(204);
    expect(retry.text).toBe("");
    await flushUntil(baseUrl(), async () => (await deliveryOf(o, ev.id, goneId)).status === "succeeded");
    expect(rcv.received.map((x) => x.headers["webhook-id"])).toEqual([ev.id, ev.id]);
    expect((await deliveryOf(o, ev.id, goneId)).attempts).toBe(2);
  });
});

describe("retry schedule, recovery and the retry API (server with WEBHOOK_RETRY_SCHEDULE=0,1,2)", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({
      databaseUrl: inject("databaseUrl"),
      label: "webhooks-schedule",
      env: { WEBHOOK_RETRY_SCHEDULE: "0,1,2", WEBHOOK_TIMEOUT_MS: "1500" },
    });
  });
  afterAll(async () => {
    await s?.stop("SIGKILL"); // not the database owner: nothing to shut down gracefully
  });

  it("retries at created_at + 0, 1, 2 s with the same webhook-id, then marks the delivery failed", async () => {
    const o = await newOrg("Schedule Org");
    const rcv = await receiver(() => ({ status: 500 }));
    const endpointId = await register(o, rcv.url);
    const ev = await emitEvent(o);
    const created = Date.parse((await deliveryOf(o, ev.id)).created_at);
    await flushUntil(s.baseUrl, async () => (await deliveryOf(o, ev.id)).status === "failed", { everyMs: 100 });
    await sleep(300);
    expect(rcv.received).toHaveLength(3);
    rcv.received.forEach((r, k) => {
      expect(r.headers["webhook-id"]).toBe(ev.id);
      expect(verify(SECRET, r)).toMatchObject({ id: ev.id });
      expect(r.at - created).toBeGreaterThanOrEqual(k * 1000 - 50);
      expect(r.at - created).toBeLessThan(k * 1000 + 3000);
    });
    const d = await deliveryOf(o, ev.id);
    expect(d).toMatchObject({ status: "failed", attempts: 3, last_response_status: 500, next_attempt_at: "" });
    const ep = await endpointOf(o, endpointId);
    expect(ep.consecutive_failures).toBe(3);
    expect(ep.enabled).toBe(true);
  });

  it("a receiver failing then recovering: the delivery succeeds and the endpoint health resets", async () => {
    const o = await newOrg("Recovery Org");
    const rcv = await receiver((_r, i) => ({ status: i < 2 ? 500 : 204 }));
    const endpointId = await register(o, rcv.url);
    const ev = await emitEvent(o);
    await flushUntil(s.baseUrl, async () => (await deliveryOf(o, ev.id)).status !== "pending", { everyMs: 100 });
    const d = await deliveryOf(o, ev.id);
    expect(d).toMatchObject({ status: "succeeded", attempts: 3, last_response_status: 204, last_error: "" });
    expect(rcv.received.map((r) => r.headers["webhook-id"])).toEqual([ev.id, ev.id, ev.id]);
    const ep = await endpointOf(o, endpointId);
    expect(ep.consecutive_failures).toBe(0);
    expect(ep.last_failure_at).not.toBe("");
    expect(Date.parse(ep.last_success_at)).toBeGreaterThanOrEqual(Date.parse(ep.last_failure_at));
  });

  it("honours Retry-After when it is later than the schedule", async () => {
    const o = await newOrg("Retry-After Org");
    const rcv = await receiver((_r, i) => (i === 0 ? { status: 429, headers: { "retry-after": "3" } } : { status: 200 }));
    await register(o, rcv.url);
    const ev = await emitEvent(o);
    await flushUntil(s.baseUrl, async () => (await deliveryOf(o, ev.id)).status === "succeeded", { everyMs: 100 });
    expect(rcv.received).toHaveLength(2);
    expect(rcv.received[1].at - rcv.received[0].at).toBeGreaterThanOrEqual(2900);
  });

  it("a 2xx after WEBHOOK_TIMEOUT_MS is a failure (no HTTP status recorded)", async () => {
    const o = await newOrg("Timeout Org");
    const rcv = await receiver(() => ({ status: 200, delayMs: 2500 }));
    await register(o, rcv.url);
    const ev = await emitEvent(o);
    await flushUntil(s.baseUrl, async () => (await deliveryOf(o, ev.id)).attempts >= 1, { everyMs: 100 });
    const d = await deliveryOf(o, ev.id);
    expect(d.status).not.toBe("succeeded");
    expect(d.last_response_status).toBeNull();
    expect(d.last_error).toMatch(/timed out/);
  });

  it("retries a failed delivery through the API once; an accepted retry key replays as a no-op forever", async () => {
    const o = await newOrg("Retry API Org");
    let healthy = false;
    const rcv = await receiver(() => ({ status: healthy ? 200 : 500 }));
    await register(o, rcv.url);
    const ev = await emitEvent(o);
    await flushUntil(s.baseUrl, async () => (await deliveryOf(o, ev.id)).status === "failed", { everyMs: 100 });
    const failed = await deliveryOf(o, ev.id);
    expect(failed.attempts).toBe(3);

    // Retry with K1: one more attempt, which fails again -> failed (not the whole schedule again).
    const k1 = `retry-${randomUUID()}`;
    const r1 = await o.api.post(`/webhook-deliveries/${failed.id}/retry`, undefined, { idempotencyKey: k1 });
    expect(r1.status).toBe(204);
    const requeued = await deliveryOf(o, ev.id);
    expect(requeued.status).toBe("pending");
    expect(Date.parse(requeued.next_attempt_at)).toBeLessThanOrEqual(Date.now() + 1000);
    await flushUntil(s.baseUrl, async () => (await deliveryOf(o, ev.id)).status === "failed", { everyMs: 100 });
    await sleep(1500);
    await cronFlush(s.baseUrl);
    expect(rcv.received).toHaveLength(4);
    expect(await deliveryOf(o, ev.id)).toMatchObject({ status: "failed", attempts: 4 });

    // Replaying K1 after that second failure cycle: 204, nothing requeued.
    const replay = await o.api.post(`/webhook-deliveries/${failed.id}/retry`, undefined, { idempotencyKey: k1 });
    expect(replay.status).toBe(204);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect((await deliveryOf(o, ev.id)).status).toBe("failed");

    // ... and after the idempotency record is gone (the 24 h retention has passed).
    await db().idempotencyRecord.deleteMany({ where: { scope: `org:${o.organizationId}`, key: k1 } });
    const late = await o.api.post(`/webhook-deliveries/${failed.id}/retry`, undefined, { idempotencyKey: k1 });
    expect(late.status).toBe(204);
    expect((await deliveryOf(o, ev.id)).status).toBe("failed");
    await cronFlush(s.baseUrl);
    expect(rcv.received).toHaveLength(4);

    // A new key retries again; now the receiver is back.
    healthy = true;
    const k2 = `retry-${randomUUID()}`;
    expect((await o.api.post(`/webhook-deliveries/${failed.id}/retry`, undefined, { idempotencyKey: k2 })).status).toBe(204);
    await flushUntil(s.baseUrl, async () => (await deliveryOf(o, ev.id)).status === "succeeded", { everyMs: 100 });
    expect(await deliveryOf(o, ev.id)).toMatchObject({ status: "succeeded", attempts: 5, last_response_status: 200 });
    expect(rcv.received).toHaveLength(5);

    // Old keys still replay as no-ops; a fresh retry of a succeeded delivery is 409.
    expect((await o.api.post(`/webhook-deliveries/${failed.id}/retry`, undefined, { idempotencyKey: k1 })).status).toBe(204);
    expect((await o.api.post(`/webhook-deliveries/${failed.id}/retry`, undefined, { idempotencyKey: k2 })).status).toBe(204);
    const notFailed = await o.api.post(`/webhook-deliveries/${failed.id}/retry`);
    expect(notFailed.status).toBe(409);
    expect(notFailed.body.error.code).toBe("delivery_not_failed");
    expect(await deliveryOf(o, ev.id)).toMatchObject({ status: "succeeded", attempts: 5 });

    // An accepted retry key cannot be reused for another delivery, even after the retention.
    const other = await emitEvent(o);
    await flushUntil(s.baseUrl, async () => (await deliveryOf(o, other.id)).status !== "pending", { everyMs: 100 });
    await db().idempotencyRecord.deleteMany({ where: { scope: `org:${o.organizationId}`, key: k2 } });
    const reuse = await o.api.post(`/webhook-deliveries/${(await deliveryOf(o, other.id)).id}/retry`, undefined, { idempotencyKey: k2 });
    expect(reuse.status).toBe(422);
    expect(reuse.body.error.code).toBe("idempotency_key_reused");
  });

  it("two flushers (two servers, overlapping cron calls) never send one attempt twice", async () => {
    const o = await newOrg("Concurrent Flush Org");
    const rcv = await receiver(() => ({ status: 200, delayMs: 30 }));
    await register(o, rcv.url);
    const events = [];
    for (let i = 0; i < 40; i++) events.push(await emitEvent(o));
    const calls = [baseUrl(), s.baseUrl, baseUrl(), s.baseUrl, baseUrl(), s.baseUrl].map((u) => cronFlush(u));
    const results = await Promise.all(calls);
    for (const r of results) expect(r.status).toBe(200);
    // The flushers really overlapped: several of them claimed part of the 40.
    expect(results.filter((r) => r.body.claimed > 0).length).toBeGreaterThanOrEqual(2);
    await flushUntil(baseUrl(), async () => (await deliveries(o)).every((d) => d.status === "succeeded"));
    const ids = rcv.received.map((r) => String(r.headers["webhook-id"]));
    expect(ids.length).toBe(40);
    expect(new Set(ids).size).toBe(40);
    expect(new Set(ids)).toEqual(new Set(events.map((e) => e.id)));
    for (const d of await deliveries(o)) expect(d.attempts).toBe(1);
  });
});

describe("the in-process worker, and kill -9 mid-flush", () => {
  it("the worker delivers without any cron call; a SIGKILLed flusher loses no event and another flusher delivers everything", async () => {
    const o = await newOrg("Crash Org");
    let delayMs = 0;
    const rcv = await receiver(() => ({ status: 200, delayMs }));
    await register(o, rcv.url);
    const k = await startServer({
      databaseUrl: inject("databaseUrl"),
      label: "webhooks-kill",
      env: { WEBHOOK_WORKER: "on", WEBHOOK_WORKER_INTERVAL_MS: "100", WEBHOOK_TIMEOUT_MS: "2000" },
    });
    try {
      // The worker alone delivers.
      const first = await emitEvent(o);
      await waitUntil(async () => (await deliveryOf(o, first.id)).status === "succeeded", 20_000);
      expect(rcv.received.map((r) => r.headers["webhook-id"])).toEqual([first.id]);

      // The receiver now holds every request without answering: the worker's attempts are
      // in flight (or time out) when the server is killed.
      delayMs = 60_000;
      const events = [];
      for (let i = 0; i < 30; i++) events.push(await emitEvent(o));
      await waitUntil(() => rcv.received.length >= 3, 20_000, 10);
      const inFlight = new Set(rcv.received.slice(1).map((r) => String(r.headers["webhook-id"])));
      await k.stop("SIGKILL");
      expect(rcv.received.slice(1).every((r) => !r.responded)).toBe(true);
      expect(k.process.signalCode ?? k.process.exitCode).not.toBeNull();
      expect(inFlight.size).toBeGreaterThan(0);
      // Events keep being recorded while no flusher runs.
      for (let i = 0; i < 5; i++) events.push(await emitEvent(o));
      delayMs = 0;
      // Once the dead flusher's leases run out (2 x 2 s + 5 s), another flusher sends everything.
      await flushUntil(baseUrl(), async () => (await deliveries(o)).every((d) => d.status === "succeeded"), { timeoutMs: 60_000, everyMs: 500 });
      const got = new Set(rcv.received.map((r) => String(r.headers["webhook-id"])));
      for (const e of events) expect(got.has(e.id), e.id).toBe(true);
      // Every attempt the dead server had in flight was sent again, with the same webhook-id.
      const counts = new Map<string, number>();
      for (const r of rcv.received) counts.set(String(r.headers["webhook-id"]), (counts.get(String(r.headers["webhook-id"])) ?? 0) + 1);
      for (const id of inFlight) expect(counts.get(id)).toBeGreaterThanOrEqual(2);
      expect((await deliveries(o)).length).toBe(36);
    } finally {
      await k.stop("SIGKILL");
    }
  });

  it("SIGTERM stops the worker: an event recorded after the signal is not delivered by that server", async () => {
    const o = await newOrg("SIGTERM Org");
    const rcv = await receiver();
    await register(o, rcv.url);
    const w = await startServer({
      databaseUrl: inject("databaseUrl"),
      label: "webhooks-sigterm",
      env: { WEBHOOK_WORKER: "on", WEBHOOK_WORKER_INTERVAL_MS: "100" },
    });
    try {
      const before = await emitEvent(o);
      await waitUntil(async () => (await deliveryOf(o, before.id)).status === "succeeded", 20_000);
      // A request still in progress (its body not complete) keeps the server draining after
      // SIGTERM (Next.js finishes pending requests first): the process is alive, its worker
      // must have stopped all the same.
      const held = net.connect(w.port, "127.0.0.1");
      held.on("error", () => undefined);
      await new Promise((r) => held.once("connect", r));
      held.write("POST /api/v1/session HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{");
      await sleep(300);
      process.kill(-w.process.pid!, "SIGTERM");
      await sleep(500);
      const after = await emitEvent(o);
      await sleep(2000);
      expect(w.process.exitCode ?? w.process.signalCode, "the server is still draining").toBeNull();
      expect((await deliveryOf(o, after.id)).status).toBe("pending");
      expect(rcv.received.map((r) => r.headers["webhook-id"])).toEqual([before.id]);
      held.destroy();
    } finally {
      await w.stop("SIGKILL");
    }
  });
});

describe("SSRF guard (server with WEBHOOK_ALLOW_PRIVATE_NETWORKS=false)", () => {
  let p: TestServer;
  let org: OrgFixture;
  let api: Api;
  beforeAll(async () => {
    p = await startServer({ databaseUrl: inject("databaseUrl"), label: "webhooks-ssrf", env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: "false" } });
    org = await newOrg("SSRF Org");
    api = new Api(p.baseUrl, org.apiKey);
  });
  afterAll(async () => {
    await p?.stop("SIGKILL"); // not the database owner: nothing to shut down gracefully
  });

  it("refuses loopback, private, link-local, metadata and unspecified destinations at registration", async () => {
    const refused = [
      "http://127.0.0.1:8080/hooks",
      "http://[::1]:8080/hooks",
      "http://169.254.169.254/latest/meta-data/",
      "http://[fd00:ec2::254]/latest/meta-data/",
      "http://localhost:8080/hooks",
      "http://api.localhost/hooks",
      "http://10.0.0.7/hooks",
      "http://172.16.3.4/hooks",
      "https://192.168.1.10/hooks",
      "http://100.64.0.1/hooks",
      "http://0.0.0.0:8080/hooks",
      "http://[::]/hooks",
      "http://[::ffff:127.0.0.1]/hooks",
      "http://[::ffff:169.254.169.254]/hooks",
      "http://[fe80::1]/hooks",
      "http://[fc00::1]/hooks",
      "http://224.0.0.1/hooks",
      "http://2130706433/hooks", // 127.0.0.1 in decimal
      "http://0x7f.1/hooks",
    ];
    for (const url of refused) {
      const r = await api.post("/webhook-endpoints", { url, secret: SECRET });
      expect(r.status, url).toBe(422);
      expect(r.body.error.code).toBe("validation_failed");
      expect(r.body.error.message).toContain("body.url");
      // The refusal names the setting that allows such destinations.
      expect(r.body.error.message).toContain("WEBHOOK_ALLOW_PRIVATE_NETWORKS=true");
    }
    expect((await api.get("/webhook-endpoints")).body.items).toEqual([]);
    // A public address is accepted.
    const ok = await api.post("/webhook-endpoints", { url: "https://93.184.215.14/hooks", secret: SECRET });
    expect(ok.status).toBe(201);
    // A change of address is checked the same way; the endpoint keeps its address.
    const moved = await api.patch(`/webhook-endpoints/${ok.body.id}`, { url: "http://10.0.0.7/hooks" });
    expect(moved.status).toBe(422);
    expect(moved.body.error.code).toBe("validation_failed");
    expect(moved.body.error.message).toContain("WEBHOOK_ALLOW_PRIVATE_NETWORKS=true");
    expect((await api.get("/webhook-endpoints")).body.items[0].url).toBe("https://93.184.215.14/hooks");
  });

  it("refuses at delivery a destination that resolves to loopback: the receiver is never contacted", async () => {
    const rcv = await receiver();
    // Registered where private networks are allowed (as if DNS had changed since).
    const o = await newOrg("SSRF Delivery Org");
    await register(o, rcv.url);
    await register(o, `http://localhost:${rcv.port}/hooks`);
    await register(o, `http://[::1]:${rcv.port}/hooks`);
    const ev = await emitEvent(o);
    await flushUntil(p.baseUrl, async () => (await deliveries(o)).filter((d) => d.event_id === ev.id).every((d) => d.attempts >= 1));
    const ds = (await deliveries(o)).filter((d) => d.event_id === ev.id);
    expect(ds).toHaveLength(3);
    for (const d of ds) {
      expect(d.status).toBe("pending");
      expect(d.last_response_status).toBeNull();
      expect(d.last_error).toMatch(/destination refused/);
    }
    expect(rcv.received).toHaveLength(0);
  });
});
