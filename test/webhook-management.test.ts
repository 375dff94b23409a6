import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { Api } from "./support/api";
import { TEST_PASSWORD } from "./support/fixtures";
import { createTestDatabase, startServer, type TestServer } from "./support/server";
import { SECRET, flushUntil, sleep, startReceiver, verifier, verify, waitUntil, type Receiver } from "./support/webhooks";
import { registration } from "./support/bodies";
import { recordPayment } from "./support/payments";
import { db } from "@/lib/db/client";
import { createOrganization, createOrganizationApiKey } from "@/lib/organizations/create-organization";
import type { Scope } from "@/lib/auth/permissions";
import { ZWebhookPayload } from "@/lib/schemas/webhooks";

// Managed webhook endpoints (docs/obligations.md, Lifecycle): PATCH (url, enabled, event_types, secret
// rotation with both signatures for 24 hours), DELETE (pending deliveries cancelled), the
// test event, the event-type filter and the automatic disabling after 5 days of failures.
// Real receivers on 127.0.0.1 and the cron flusher of the global test server (its worker
// is off); time that cannot be waited for (24 hours, 5 days) is moved back in the database.
// This file runs its own server on its own database: a flush claims every due delivery of
// its database, and the shared server's other test files expect theirs untouched.

let S: TestServer;
const baseUrl = () => S.baseUrl;

beforeAll(async () => {
  const admin = process.env.TEST_DATABASE_URL;
  const databaseUrl = admin ? await createTestDatabase(admin) : undefined;
  S = await startServer({ databaseUrl, label: "webhook-management" });
  process.env.DATABASE_URL = S.databaseUrl; // fixtures and direct reads go to this database
}, 300_000);

type OrgFixture = { organizationId: string; apiKey: string; api: Api };

async function newOrg(name: string): Promise<OrgFixture> {
  const r = await createOrganization({ name, ownerEmail: `owner-${randomUUID()}@example.test`, ownerPassword: TEST_PASSWORD, ownerName: "Olive Owner" });
  return { organizationId: r.organization_id, apiKey: r.api_key, api: new Api(baseUrl(), r.api_key) };
}

async function apiKeyWith(org: OrgFixture, scopes: Scope[]): Promise<Api> {
  const { api_key } = await createOrganizationApiKey({ organizationId: org.organizationId, scopes });
  return new Api(baseUrl(), api_key);
}

const NEW_SECRET = "whsec-rotated-abcdef0123456789-abcdef0123456789";

async function emitEvent(org: OrgFixture): Promise<string> {
  const r = await org.api.post("/obligations", registration());
  expect(r.status, r.text).toBe(201);
  return r.body.operation_id;
}

async function register(org: OrgFixture, url: string, extra: Record<string, unknown> = {}): Promise<string> {
  const r = await org.api.post("/webhook-endpoints", { url, secret: SECRET, ...extra });
  expect(r.status, r.text).toBe(201);
  return r.body.id;
}

async function deliveries(org: OrgFixture): Promise<any[]> {
  const r = await org.api.get("/webhook-deliveries");
  expect(r.status, r.text).toBe(200);
  return r.body.items;
}

async function endpoints(org: OrgFixture): Promise<any[]> {
  const r = await org.api.get("/webhook-endpoints");
  expect(r.status, r.text).toBe(200);
  return r.body.items;
}

const receivers: Receiver[] = [];
async function receiver(...args: Parameters<typeof startReceiver>): Promise<Receiver> {
  const r = await startReceiver(...args);
  receivers.push(r);
  return r;
}
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await S?.stop();
});

const typesOf = (rcv: Receiver) => rcv.received.map((r) => JSON.parse(r.body).type as string);

describe("PATCH /webhook-endpoints/{id}", () => {
  let org: OrgFixture;
  beforeAll(async () => {
    org = await newOrg("Managed Webhooks Org");
  });

  it("changes url and event types; answers the endpoint; 404 for unknown, malformed and foreign ids", async () => {
    const id = await register(org, "http://127.0.0.1:9/first");
    const r = await org.api.patch(`/webhook-endpoints/${id}`, { url: "http://127.0.0.1:9/second", event_types: ["obligation.overdue", "payment.allocated"] });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ id, url: "http://127.0.0.1:9/second", enabled: true, event_types: ["obligation.overdue", "payment.allocated"] });
    expect((await endpoints(org)).find((e) => e.id === id)).toEqual(r.body);
    const all = await org.api.patch(`/webhook-endpoints/${id}`, { event_types: [] });
    expect(all.body.event_types).toEqual([]);

    const other = await newOrg("Foreign Webhooks Org");
    for (const [api, path] of [
      [org.api, `/webhook-endpoints/${randomUUID()}`],
      [org.api, "/webhook-endpoints/not-a-uuid"],
      [other.api, `/webhook-endpoints/${id}`],
    ] as const) {
      const x = await api.patch(path, { enabled: false });
      expect(x.status, path).toBe(404);
      expect(x.body.error.code).toBe("not_found");
    }
    expect((await endpoints(org)).find((e) => e.id === id).enabled).toBe(true);
  });

  it("validates the body (422 validation_failed naming the field); scopes as for registration", async () => {
    const id = await register(org, "http://127.0.0.1:9/validate");
    const cases: [unknown, string][] = [
      [{}, "at least one"],
      [{ event_types: ["obligation.nope"] }, "body.event_types"],
      [{ event_types: ["payment.recorded", "payment.recorded"] }, "body.event_types"],
      [{ enabled: "no" }, "body.enabled"],
      [{ secret: "short" }, "body.secret"],
      [{ url: "ftp://127.0.0.1/x" }, "body.url"],
      [{ events: ["*"] }, "body.events"],
    ];
    for (const [body, text] of cases) {
      const r = await org.api.patch(`/webhook-endpoints/${id}`, body);
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(r.body.error.code).toBe("validation_failed");
      expect(r.body.error.message).toContain(text);
    }
    const readOnly = await apiKeyWith(org, ["webhooks:read"]);
    for (const r of [
      await readOnly.patch(`/webhook-endpoints/${id}`, { enabled: false }),
      await readOnly.delete(`/webhook-endpoints/${id}`),
      await readOnly.post(`/webhook-endpoints/${id}/test`),
    ]) {
      expect(r.status).toBe(403);
      expect(r.body.error.code).toBe("insufficient_scope");
    }
    expect((await new Api(baseUrl()).patch(`/webhook-endpoints/${id}`, { enabled: false })).status).toBe(401);
  });

  it("event_types filters what the endpoint receives (also given at registration); empty receives everything", async () => {
    const o = await newOrg("Filter Org");
    const onlyPayments = await receiver();
    const everything = await receiver();
    const filtered = await register(o, onlyPayments.url, { event_types: ["payment.recorded"] });
    const all = await register(o, everything.url);
    expect((await endpoints(o)).find((e) => e.id === filtered).event_types).toEqual(["payment.recorded"]);
    const ev = await emitEvent(o);
    await recordPayment(o.api, { amount_minor: "100" });
    const ds = await deliveries(o);
    expect(ds.filter((d) => d.endpoint_id === filtered).map((d) => d.event_type)).toEqual(["payment.recorded"]);
    expect(ds.filter((d) => d.endpoint_id === all).map((d) => d.event_type)).toEqual(["payment.recorded", "obligation.registered"]);
    await flushUntil(baseUrl(), () => onlyPayments.received.length >= 1 && everything.received.length >= 2);
    expect(typesOf(onlyPayments)).toEqual(["payment.recorded"]);
    expect(typesOf(everything).sort()).toEqual(["obligation.registered", "payment.recorded"]);
    expect(everything.received.some((r) => r.headers["webhook-id"] === ev)).toBe(true);
    // Changed: from now on only obligation.registered.
    await o.api.patch(`/webhook-endpoints/${filtered}`, { event_types: ["obligation.registered"] });
    await recordPayment(o.api, { amount_minor: "200" });
    const ev2 = await emitEvent(o);
    expect((await deliveries(o)).filter((d) => d.endpoint_id === filtered).map((d) => d.event_id)).toEqual([ev2, expect.any(String)]);
  });

  it("disabling stops deliveries and fails what is queued; enabling resumes", async () => {
    const o = await newOrg("Disable Org");
    const rcv = await receiver();
    const id = await register(o, rcv.url);
    const queued = await emitEvent(o);
    const off = await o.api.patch(`/webhook-endpoints/${id}`, { enabled: false });
    expect(off.status, off.text).toBe(200);
    expect(off.body).toMatchObject({ enabled: false, disabled_reason: expect.stringContaining("disabled") });
    const d = (await deliveries(o)).find((x) => x.event_id === queued);
    expect(d).toMatchObject({ status: "failed", last_error: "endpoint disabled", next_attempt_at: "" });
    const skipped = await emitEvent(o);
    expect((await deliveries(o)).some((x) => x.event_id === skipped)).toBe(false);
    const on = await o.api.patch(`/webhook-endpoints/${id}`, { enabled: true });
    expect(on.body).toMatchObject({ enabled: true, disabled_reason: "", consecutive_failures: 0, failing_since: "" });
    const after = await emitEvent(o);
    await flushUntil(baseUrl(), () => rcv.received.length >= 1);
    await sleep(200);
    expect(rcv.received.map((r) => r.headers["webhook-id"])).toEqual([after]);
  });

  it("a new secret: both signatures for 24 hours (standardwebhooks verifies with either), then only the new one", async () => {
    const o = await newOrg("Rotation Org");
    const rcv = await receiver();
    const id = await register(o, rcv.url);
    const r = await o.api.patch(`/webhook-endpoints/${id}`, { secret: NEW_SECRET }, { idempotencyKey: `rot-${randomUUID()}` });
    expect(r.status, r.text).toBe(200);
    expect(r.text).not.toContain(NEW_SECRET);
    const until = Date.parse(r.body.previous_secret_until);
    expect(until - Date.now()).toBeGreaterThan(23.9 * 3_600_000);
    expect(until - Date.now()).toBeLessThanOrEqual(24 * 3_600_000);
    const row = await db().webhookEndpoint.findFirstOrThrow({ where: { id } });
    for (const s of [SECRET, NEW_SECRET]) {
      expect(row.secretCiphertext).not.toContain(s);
      expect(row.previousSecretCiphertext).not.toContain(s);
    }

    const ev = await emitEvent(o);
    await flushUntil(baseUrl(), () => rcv.received.length >= 1);
    const first = rcv.received[0];
    expect(first.headers["webhook-id"]).toBe(ev);
    const sigs = String(first.headers["webhook-signature"]).split(" ");
    expect(sigs).toHaveLength(2);
    for (const s of sigs) expect(s).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    // The reference library accepts the request with the new secret and with the old one.
    expect((verify(NEW_SECRET, first) as any).id).toBe(ev);
    expect((verify(SECRET, first) as any).id).toBe(ev);
    expect(() => verify("y".repeat(40), first)).toThrow();
    // Each signature on its own is the one of its secret (new first).
    const only = (sig: string, secret: string) =>
      verifier(secret).verify(first.body, {
        "webhook-id": String(first.headers["webhook-id"]),
        "webhook-timestamp": String(first.headers["webhook-timestamp"]),
        "webhook-signature": sig,
      });
    expect(() => only(sigs[0], NEW_SECRET)).not.toThrow();
    expect(() => only(sigs[1], SECRET)).not.toThrow();
    expect(() => only(sigs[0], SECRET)).toThrow();

    // 24 hours later (moved in the database): only the new secret signs.
    await db().webhookEndpoint.updateMany({ where: { id }, data: { previousSecretExpiresAt: new Date(Date.now() - 1000) } });
    expect((await endpoints(o)).find((e) => e.id === id).previous_secret_until).toBe("");
    await emitEvent(o);
    await flushUntil(baseUrl(), () => rcv.received.length >= 2);
    const second = rcv.received[1];
    expect(String(second.headers["webhook-signature"]).split(" ")).toHaveLength(1);
    expect(() => verify(NEW_SECRET, second)).not.toThrow();
    expect(() => verify(SECRET, second)).toThrow();
    expect(new Webhook(Buffer.from(NEW_SECRET).toString("base64")).verify(second.body, second.headers as Record<string, string>)).toBeTruthy();
  });
});

describe("DELETE /webhook-endpoints/{id}", () => {
  it("204; pending deliveries are cancelled and cannot be retried; the endpoint leaves the list; past deliveries stay", async () => {
    const o = await newOrg("Delete Org");
    const rcv = await receiver();
    const id = await register(o, rcv.url);
    const done = await emitEvent(o);
    await flushUntil(baseUrl(), () => rcv.received.length >= 1);
    await waitUntil(async () => (await deliveries(o)).find((d) => d.event_id === done)?.status === "succeeded");
    const pending = await emitEvent(o);
    const r = await o.api.delete(`/webhook-endpoints/${id}`);
    expect(r.status, r.text).toBe(204);
    expect(r.text).toBe("");
    expect((await endpoints(o)).map((e) => e.id)).not.toContain(id);
    expect(await db().webhookEndpoint.findFirstOrThrow({ where: { id } })).toMatchObject({ secretCiphertext: "", previousSecretCiphertext: "" });
    const ds = await deliveries(o);
    expect(ds.find((d) => d.event_id === done)).toMatchObject({ status: "succeeded" });
    const cancelled = ds.find((d) => d.event_id === pending);
    expect(cancelled).toMatchObject({ status: "failed", last_error: "cancelled: endpoint deleted", next_attempt_at: "", attempts: 0 });
    const retry = await o.api.post(`/webhook-deliveries/${cancelled.id}/retry`);
    expect(retry.status).toBe(404);
    expect(retry.body.error.code).toBe("not_found");
    // Nothing new is queued for it, nothing is sent.
    const later = await emitEvent(o);
    expect((await deliveries(o)).some((d) => d.event_id === later)).toBe(false);
    await flushUntil(baseUrl(), () => true);
    expect(rcv.received).toHaveLength(1);
    // Deleted: PATCH, DELETE and test are 404.
    for (const x of [
      await o.api.delete(`/webhook-endpoints/${id}`),
      await o.api.patch(`/webhook-endpoints/${id}`, { enabled: true }),
      await o.api.post(`/webhook-endpoints/${id}/test`),
    ]) {
      expect(x.status).toBe(404);
      expect(x.body.error.code).toBe("not_found");
    }
    const foreign = await newOrg("Delete Foreign Org");
    const theirs = await register(foreign, "http://127.0.0.1:9/theirs");
    expect((await o.api.delete(`/webhook-endpoints/${theirs}`)).status).toBe(404);
    expect((await endpoints(foreign)).map((e) => e.id)).toContain(theirs);
  });
});

describe("POST /webhook-endpoints/{id}/test", () => {
  it("202 and a webhook.test delivery to that endpoint only, signed and verifiable", async () => {
    const o = await newOrg("Test Event Org");
    const target = await receiver();
    const bystander = await receiver();
    const id = await register(o, target.url);
    await register(o, bystander.url);
    const r = await o.api.post(`/webhook-endpoints/${id}/test`);
    expect(r.status, r.text).toBe(202);
    expect(r.body).toEqual({ event_id: expect.stringMatching(/^[0-9a-f-]{36}$/), delivery_id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const ds = (await deliveries(o)).filter((d) => d.event_id === r.body.event_id);
    expect(ds).toEqual([expect.objectContaining({ id: r.body.delivery_id, endpoint_id: id, event_type: "webhook.test", status: "pending" })]);
    await flushUntil(baseUrl(), () => target.received.length >= 1);
    await sleep(200);
    expect(bystander.received).toHaveLength(0);
    const payload = verify(SECRET, target.received[0]) as any;
    expect(payload).toMatchObject({ id: r.body.event_id, type: "webhook.test", organization_id: o.organizationId, data: { test: true } });
    expect(payload.data.webhook_endpoint).toMatchObject({ id, url: target.url });
    expect(ZWebhookPayload.safeParse(payload).error).toBeUndefined();
    await waitUntil(async () => (await deliveries(o)).find((d) => d.id === r.body.delivery_id)?.status === "succeeded");
    // A disabled endpoint can be tested too (before enabling it again).
    await o.api.patch(`/webhook-endpoints/${id}`, { enabled: false });
    const again = await o.api.post(`/webhook-endpoints/${id}/test`);
    expect(again.status).toBe(202);
    await flushUntil(baseUrl(), () => target.received.length >= 2);
  });
});

describe("automatic disabling after 5 days of failures", () => {
  it("an endpoint failing every attempt for 5 days is disabled with event webhook_endpoint.disabled; a success resets the count", async () => {
    const o = await newOrg("Failing Org");
    let failing = true;
    const bad = await receiver(() => ({ status: failing ? 500 : 200 }));
    const watcher = await receiver();
    const badId = await register(o, bad.url);
    const watcherId = await register(o, watcher.url, { event_types: ["webhook_endpoint.disabled"] });

    const attempted = async (eventId: string) => ((await deliveries(o)).find((d) => d.event_id === eventId && d.endpoint_id === badId)?.attempts ?? 0) >= 1;
    const first = await emitEvent(o);
    await flushUntil(baseUrl(), () => attempted(first));
    let ep = (await endpoints(o)).find((e) => e.id === badId);
    expect(ep).toMatchObject({ enabled: true });
    expect(ep.consecutive_failures).toBeGreaterThanOrEqual(1);
    expect(Date.parse(ep.failing_since)).toBeGreaterThan(Date.now() - 60_000);

    // A success resets the run of failures.
    failing = false;
    const ok = await o.api.post(`/webhook-endpoints/${badId}/test`);
    await flushUntil(baseUrl(), async () => (await deliveries(o)).find((d) => d.id === ok.body.delivery_id)?.status === "succeeded");
    expect((await endpoints(o)).find((e) => e.id === badId)).toMatchObject({ failing_since: "", consecutive_failures: 0 });
    failing = true;

    // Failing for just under 5 days: still enabled after another failure.
    const second = await emitEvent(o);
    await flushUntil(baseUrl(), () => attempted(second));
    await db().webhookEndpoint.updateMany({ where: { id: badId }, data: { failingSince: new Date(Date.now() - 5 * 86_400_000 + 3_600_000) } });
    const almost = await o.api.post(`/webhook-endpoints/${badId}/test`);
    await flushUntil(baseUrl(), async () => (await deliveries(o)).find((d) => d.id === almost.body.delivery_id)?.attempts === 1);
    expect((await endpoints(o)).find((e) => e.id === badId).enabled).toBe(true);

    // Failing for 5 days: the next failed attempt disables it.
    await db().webhookEndpoint.updateMany({ where: { id: badId }, data: { failingSince: new Date(Date.now() - 5 * 86_400_000 - 60_000) } });
    const test = await o.api.post(`/webhook-endpoints/${badId}/test`);
    await flushUntil(baseUrl(), async () => (await endpoints(o)).find((e) => e.id === badId).enabled === false);
    ep = (await endpoints(o)).find((e) => e.id === badId);
    expect(ep.disabled_reason).toMatch(/failed for 5 days/);
    // What was queued for it failed; new events skip it.
    const ofBad = (await deliveries(o)).filter((d) => d.endpoint_id === badId);
    expect(ofBad.filter((d) => d.status === "pending")).toEqual([]);
    expect(ofBad.find((d) => d.event_id === test.body.event_id)).toMatchObject({ status: "failed", last_error: expect.stringMatching(/^endpoint disabled: /) });
    expect(ofBad.find((d) => d.event_id === second)).toMatchObject({ status: "failed" });
    const third = await emitEvent(o);
    expect((await deliveries(o)).some((d) => d.event_id === third && d.endpoint_id === badId)).toBe(false);

    // The event: once, in the organization's trail, delivered to the other endpoint.
    const events = await db().event.findMany({ where: { organizationId: o.organizationId, type: "webhook_endpoint.disabled" } });
    expect(events).toHaveLength(1);
    expect(events[0].actorType).toBe("system");
    await flushUntil(baseUrl(), () => watcher.received.length >= 1);
    const payload = verify(SECRET, watcher.received[0]) as any;
    expect(payload).toMatchObject({ type: "webhook_endpoint.disabled", data: { webhook_endpoint: { id: badId, enabled: false } } });
    expect(ZWebhookPayload.safeParse(payload).error).toBeUndefined();
    expect(typesOf(watcher)).toEqual(["webhook_endpoint.disabled"]);
    expect((await deliveries(o)).filter((d) => d.endpoint_id === watcherId).map((d) => d.event_type)).toEqual(["webhook_endpoint.disabled"]);
  });
});

describe("OpenAPI", () => {
  it("documents PATCH, DELETE and the test event", async () => {
    const doc = (await new Api(baseUrl()).get("/openapi.json")).body;
    expect(doc.paths["/webhook-endpoints/{id}"].patch.responses["200"]).toBeDefined();
    expect(doc.paths["/webhook-endpoints/{id}"].delete.responses["204"]).toBeDefined();
    expect(doc.paths["/webhook-endpoints/{id}/test"].post.responses["202"]).toBeDefined();
    expect(doc.paths["/webhook-endpoints"].post.requestBody.content["application/json"].schema.required).toEqual(["url", "secret"]);
    expect(doc.webhooks.event.post.requestBody.content["application/json"].schema.properties.type.enum).toEqual(
      expect.arrayContaining(["webhook.test", "webhook_endpoint.disabled"]),
    );
  });
});
