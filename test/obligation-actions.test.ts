import { createHash, randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { ZMutationResult, ZPaymentRequestResource } from "@/lib/schemas/obligations";
import { apiKeyWith, newOrg, type OrgFixture } from "./support/fixtures";
import { dayOffset, milestoneBody, registerObligation } from "./support/obligations";

// Issuer actions, condition satisfaction and the hosted payment request (revoke/reissue/GET).

const tokenOf = (hostedUrl: string) => new URL(hostedUrl).hash.slice(1);
const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");

describe("POST /obligations/{id}/actions", () => {
  let org: OrgFixture;
  let other: OrgFixture;
  beforeAll(async () => {
    org = await newOrg("Actions Ltd");
    other = await newOrg("Other Tenant");
  });

  const act = (id: string, body: Record<string, unknown>, o: OrgFixture = org) => o.api.post(`/obligations/${id}/actions`, body);
  const detail = async (id: string) => (await org.api.get(`/obligations/${id}`)).body;

  it("mark_sent: OBLIGATION_CAPTURED -> PAYMENT_REQUESTED, version + 1, event obligation.payment_requested; refused afterwards", async () => {
    const { invoice } = await registerObligation(org.api);
    const r = await act(invoice.id, { action: "mark_sent", expected_version: 1 });
    expect(r.status, r.text).toBe(200);
    const res = ZMutationResult.parse(r.body);
    expect(res.event_type).toBe("obligation.payment_requested");
    expect(res.invoice).toMatchObject({ status: "PAYMENT_REQUESTED", version: 2 });
    expect(res.obligation).toMatchObject({ status: "PAYMENT_REQUESTED", version: 2 });
    expect(res.payment_request).toBeUndefined();
    expect(Date.parse(res.invoice.updated_at)).toBeGreaterThanOrEqual(Date.parse(invoice.updated_at));
    const again = await act(invoice.id, { action: "mark_sent", expected_version: 2 });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("invalid_state");
    const d = await detail(invoice.id);
    expect(d.version).toBe(2);
    expect(d.audit_trail.map((e: any) => e.event_type)).toEqual(["obligation.registered", "obligation.payment_requested"]);
    expect(d.audit_trail[1].id).toBe(res.operation_id);
  });

  it("a stale expected_version is 409 version_conflict and changes nothing", async () => {
    const { invoice } = await registerObligation(org.api);
    expect((await act(invoice.id, { action: "set_expected_payment_date", expected_version: 1, expected_payment_date: dayOffset(10) })).status).toBe(200);
    const before = await detail(invoice.id);
    for (const body of [
      { action: "mark_sent", expected_version: 1 },
      { action: "post_message", expected_version: 1, message: "stale" },
      { action: "revoke_link", expected_version: 3 },
      { action: "set_expected_payment_date", expected_version: 1, expected_payment_date: dayOffset(20) },
    ]) {
      const r = await act(invoice.id, body);
      expect(r.status, JSON.stringify(body)).toBe(409);
      expect(r.body.error.code).toBe("version_conflict");
    }
    const after = await detail(invoice.id);
    expect(after).toEqual(before);
    expect(after).toMatchObject({ version: 2, status: "OBLIGATION_CAPTURED", expected_payment_date: dayOffset(10) });
  });

  it("validates the ActionInput union strictly", async () => {
    const { invoice } = await registerObligation(org.api);
    const cases: [Record<string, unknown>, string][] = [
      [{ action: "mark_sent" }, "body.expected_version"],
      [{ action: "mark_sent", expected_version: 0 }, "body.expected_version"],
      [{ action: "mark_sent", expected_version: "1" }, "body.expected_version"],
      [{ action: "mark_sent", expected_version: 1.5 }, "body.expected_version"],
      [{ action: "mark_sent", expected_version: 1, note: "x" }, "body.note"],
      [{ action: "explode", expected_version: 1 }, "body.action"],
      [{ expected_version: 1 }, "body.action"],
      [{ action: "acknowledge", expected_version: 1 }, "body.action"],
      [{ action: "report_payment", expected_version: 1, reported_payment_date: dayOffset(0) }, "body.action"],
      [{ action: "post_message", expected_version: 1 }, "body.message"],
      [{ action: "post_message", expected_version: 1, message: "" }, "body.message"],
      [{ action: "post_message", expected_version: 1, message: "x".repeat(4001) }, "body.message"],
      [{ action: "set_expected_payment_date", expected_version: 1 }, "body.expected_payment_date"],
      [{ action: "set_expected_payment_date", expected_version: 1, expected_payment_date: "tomorrow" }, "body.expected_payment_date"],
      [{ action: "waive_condition", expected_version: 1 }, "body.condition_id"],
    ];
    for (const [body, path] of cases) {
      const r = await act(invoice.id, body);
      expect(r.status, `${JSON.stringify(body)} ${r.text}`).toBe(422);
      expect(r.body.error.code).toBe("validation_failed");
      expect(r.body.error.message).toContain(path);
    }
    expect((await detail(invoice.id)).version).toBe(1);
  });

  it("post_message stores the message (1..4000 chars) and shows it in the detail", async () => {
    const { invoice } = await registerObligation(org.api);
    const long = "y".repeat(4000);
    const r = await act(invoice.id, { action: "post_message", expected_version: 1, message: "Please confirm the PO number." });
    expect(r.status).toBe(200);
    expect(r.body.event_type).toBe("obligation.message_posted");
    expect((await act(invoice.id, { action: "post_message", expected_version: 2, message: long })).status).toBe(200);
    const d = await detail(invoice.id);
    expect(d.messages.map((m: any) => [m.author_type, m.author_name, m.body])).toEqual([
      ["issuer", "Actions Ltd", "Please confirm the PO number."],
      ["issuer", "Actions Ltd", long],
    ]);
    expect(d.audit_trail[1].detail).toMatchObject({ body: "Please confirm the PO number." });
    expect(d.version).toBe(3);
  });

  it("set_expected_payment_date sets the date in record and projection", async () => {
    const { invoice } = await registerObligation(org.api);
    const r = await act(invoice.id, { action: "set_expected_payment_date", expected_version: 1, expected_payment_date: "2027-01-15" });
    expect(r.status).toBe(200);
    expect(r.body.event_type).toBe("obligation.expected_payment_date_set");
    expect(r.body.invoice.expected_payment_date).toBe("2027-01-15");
    expect(r.body.obligation.expected_payment_date).toBe("2027-01-15");
  });

  it("revoke_link -> 410 on GET payment-request; revoke twice is invalid_state; reissue gives a new working link", async () => {
    const { invoice, payment_request: pr } = await registerObligation(org.api);
    const get1 = await org.api.get(`/obligations/${invoice.id}/payment-request`);
    expect(get1.status).toBe(200);
    expect(ZPaymentRequestResource.parse(get1.body)).toEqual({ ...pr, revoked: false, payment_reference: expect.stringMatching(/^RF\d{2}/) });

    const rv = await act(invoice.id, { action: "revoke_link", expected_version: 1 });
    expect(rv.status).toBe(200);
    expect(rv.body.event_type).toBe("obligation.link_revoked");
    expect(rv.body.invoice.link_revoked).toBe(true);
    const gone = await org.api.get(`/obligations/${invoice.id}/payment-request`);
    expect(gone.status).toBe(410);
    expect(gone.body).toEqual({ error: { code: "payment_request_revoked", message: expect.any(String) } });
    const twice = await act(invoice.id, { action: "revoke_link", expected_version: 2 });
    expect(twice.status).toBe(409);
    expect(twice.body.error.code).toBe("invalid_state");
    expect((await detail(invoice.id)).payment_request.revoked).toBe(true);

    const re = await act(invoice.id, { action: "reissue_link", expected_version: 2 });
    expect(re.status, re.text).toBe(200);
    const res = ZMutationResult.parse(re.body);
    expect(res.event_type).toBe("obligation.link_reissued");
    expect(res.invoice.link_revoked).toBe(false);
    expect(res.payment_request!.id).toBe(pr.id);
    expect(res.payment_request!.hosted_url).not.toBe(pr.hosted_url);
    expect(tokenOf(res.payment_request!.hosted_url)).not.toBe(tokenOf(pr.hosted_url));
    expect(res.invoice.link_expires_at).toBe(res.payment_request!.expires_at);
    const row = await db().paymentRequest.findFirstOrThrow({ where: { id: pr.id } });
    expect(row.tokenHash).toBe(sha256(tokenOf(res.payment_request!.hosted_url).slice(23))); // <route>_<secret>: the secret is hashed
    expect(row.issueNumber).toBe(2);
    const get2 = await org.api.get(`/obligations/${invoice.id}/payment-request`);
    expect(get2.status).toBe(200);
    expect(get2.body.hosted_url).toBe(res.payment_request!.hosted_url);
    // reissuing an unrevoked link also works (old link dead)
    const re2 = await act(invoice.id, { action: "reissue_link", expected_version: 3 });
    expect(re2.status).toBe(200);
    expect(re2.body.payment_request.hosted_url).not.toBe(res.payment_request!.hosted_url);
  });

  it("an expired payment request is 410 payment_request_expired until reissued", async () => {
    const { invoice, payment_request: pr } = await registerObligation(org.api);
    await db().paymentRequest.updateMany({ where: { id: pr.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const r = await org.api.get(`/obligations/${invoice.id}/payment-request`);
    expect(r.status).toBe(410);
    expect(r.body.error.code).toBe("payment_request_expired");
    const re = await act(invoice.id, { action: "reissue_link", expected_version: 1 });
    expect(re.status).toBe(200);
    expect(Date.parse(re.body.payment_request.expires_at)).toBeGreaterThan(Date.now() + 89 * 86_400_000);
    expect((await org.api.get(`/obligations/${invoice.id}/payment-request`)).status).toBe(200);
  });

  it("a RECONCILED obligation refuses mark_sent and reissue_link", async () => {
    const { invoice } = await registerObligation(org.api);
    // Allocations (another capability) reconcile obligations; set the state directly here.
    await db().obligation.updateMany({ where: { id: invoice.id }, data: { status: "RECONCILED", allocatedMinor: 125000n } });
    for (const action of ["mark_sent", "reissue_link"]) {
      const r = await act(invoice.id, { action, expected_version: 1 });
      expect(r.status, action).toBe(409);
      expect(r.body.error.code).toBe("invalid_state");
    }
    expect((await act(invoice.id, { action: "post_message", expected_version: 1, message: "Thanks!" })).status).toBe(200);
  });

  it("50 concurrent actions with one expected_version: exactly one wins, version + 1, one effect", async () => {
    const { invoice } = await registerObligation(org.api);
    const rs = await Promise.all(
      Array.from({ length: 50 }, (_, i) => act(invoice.id, { action: "post_message", expected_version: 1, message: `message ${i}` })),
    );
    const ok = rs.filter((r) => r.status === 200);
    const conflicts = rs.filter((r) => r.status === 409);
    expect(ok).toHaveLength(1);
    expect(conflicts).toHaveLength(49);
    for (const r of conflicts) expect(r.body.error.code).toBe("version_conflict");
    const d = await detail(invoice.id);
    expect(d.version).toBe(2);
    expect(d.messages).toHaveLength(1);
    expect(d.audit_trail).toHaveLength(2);
    const winner = d.audit_trail.find((e: any) => e.id === ok[0].body.operation_id);
    expect(winner.detail.body).toBe(d.messages[0].body);
  });

  it("50 concurrent mark_sent with one expected_version: one state change", async () => {
    const { invoice } = await registerObligation(org.api);
    const rs = await Promise.all(Array.from({ length: 50 }, () => act(invoice.id, { action: "mark_sent", expected_version: 1 })));
    expect(rs.filter((r) => r.status === 200)).toHaveLength(1);
    expect(rs.filter((r) => r.status === 409 && r.body.error.code === "version_conflict")).toHaveLength(49);
    const d = await detail(invoice.id);
    expect(d).toMatchObject({ version: 2, status: "PAYMENT_REQUESTED" });
    expect(d.audit_trail.filter((e: any) => e.event_type === "obligation.payment_requested")).toHaveLength(1);
  });

  it("replays an action with the same Idempotency-Key instead of applying it twice", async () => {
    const { invoice } = await registerObligation(org.api);
    const key = `act-${randomUUID()}`;
    const body = { action: "post_message", expected_version: 1, message: "once" };
    const a = await org.api.post(`/obligations/${invoice.id}/actions`, body, { idempotencyKey: key });
    const b = await org.api.post(`/obligations/${invoice.id}/actions`, body, { idempotencyKey: key });
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(b.text).toBe(a.text);
    expect(b.headers.get("idempotent-replayed")).toBe("true");
    expect((await detail(invoice.id)).messages).toHaveLength(1);
  });

  it("is 404 for unknown, malformed and foreign obligations; needs obligations:write", async () => {
    const { invoice } = await registerObligation(org.api);
    for (const id of [randomUUID(), "nope"]) {
      const r = await act(id, { action: "mark_sent", expected_version: 1 });
      expect(r.status).toBe(404);
      expect(r.body.error.code).toBe("not_found");
    }
    const foreign = await act(invoice.id, { action: "mark_sent", expected_version: 1 }, other);
    expect(foreign.status).toBe(404);
    expect((await other.api.get(`/obligations/${invoice.id}/payment-request`)).status).toBe(404);
    const reader = await apiKeyWith(org, ["obligations:read"]);
    const denied = await reader.post(`/obligations/${invoice.id}/actions`, { action: "mark_sent", expected_version: 1 });
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe("insufficient_scope");
    // the hosted URL is a write capability (docs/security.md)
    expect((await reader.get(`/obligations/${invoice.id}/payment-request`)).body.error.code).toBe("insufficient_scope");
    expect((await detail(invoice.id)).version).toBe(1);
  });
});

describe("conditions: satisfy and waive", () => {
  let org: OrgFixture;
  let other: OrgFixture;
  beforeAll(async () => {
    org = await newOrg("Milestones Ltd");
    other = await newOrg("Other Tenant");
  });

  const satisfy = (id: string, cid: string, body: Record<string, unknown>, o: OrgFixture = org) =>
    o.api.post(`/obligations/${id}/conditions/${cid}/satisfy`, body);

  it("satisfying a condition records the evidence and recalculates payable and due amounts", async () => {
    const { invoice } = await registerObligation(org.api, milestoneBody());
    expect([invoice.payable_minor, invoice.due_minor, invoice.condition_status]).toEqual(["20000", "20000", "pending"]);
    const [delivery, acceptance] = invoice.conditions;
    const r = await satisfy(invoice.id, delivery.id, { expected_version: 1, satisfied_on: dayOffset(-15), evidence_reference: "POD-4711", source: "carrier" });
    expect(r.status, r.text).toBe(200);
    const res = ZMutationResult.parse(r.body);
    expect(res.event_type).toBe("obligation.condition_satisfied");
    expect(res.invoice.version).toBe(2);
    expect(res.invoice.conditions[0]).toEqual({
      ...delivery,
      status: "satisfied",
      satisfied_on: dayOffset(-15),
      evidence_reference: "POD-4711",
      source: "carrier",
    });
    expect(res.invoice.payment_terms[1]).toMatchObject({ amount_minor: "30000", triggered_on: dayOffset(-15), payable_on: dayOffset(-5) });
    expect([res.invoice.payable_minor, res.invoice.due_minor, res.invoice.condition_status]).toEqual(["50000", "50000", "pending"]);
    expect(res.obligation!.condition.status).toBe("pending");

    // satisfied_on defaults to today; all conditions met -> summary satisfied
    const r2 = await satisfy(invoice.id, acceptance.id, { expected_version: 2 });
    expect(r2.status).toBe(200);
    expect(r2.body.invoice.conditions[1]).toMatchObject({ status: "satisfied", satisfied_on: dayOffset(0), evidence_reference: "", source: "" });
    expect([r2.body.invoice.payable_minor, r2.body.invoice.due_minor]).toEqual(["100000", "100000"]);
    expect(r2.body.invoice.condition_status).toBe("satisfied");
    expect(r2.body.invoice.condition_satisfied_on).toBe(dayOffset(0));
    expect(r2.body.obligation.condition).toEqual({ summary: "", status: "satisfied", satisfied_on: dayOffset(0) });
    const d = (await org.api.get(`/obligations/${invoice.id}`)).body;
    expect(d.audit_trail[1]).toMatchObject({
      event_type: "obligation.condition_satisfied",
      detail: { key: "delivery", evidence_reference: "POD-4711", satisfied_on: dayOffset(-15) },
    });
  });

  it("a future satisfied_on triggers the term on that date, not before", async () => {
    const { invoice } = await registerObligation(org.api, milestoneBody());
    const r = await satisfy(invoice.id, invoice.conditions[1].id, { expected_version: 1, satisfied_on: dayOffset(3) });
    expect(r.status).toBe(200);
    expect(r.body.invoice.payment_terms[2]).toMatchObject({ triggered_on: dayOffset(3), payable_on: dayOffset(3) });
    expect(r.body.invoice.payable_minor).toBe("20000");
  });

  it("refuses: already satisfied (409 invalid_state), unknown or foreign condition (404), stale version (409), bad body (422)", async () => {
    const { invoice } = await registerObligation(org.api, milestoneBody());
    const { invoice: second } = await registerObligation(org.api, milestoneBody());
    const cid = invoice.conditions[0].id;
    expect((await satisfy(invoice.id, cid, { expected_version: 1 })).status).toBe(200);
    const again = await satisfy(invoice.id, cid, { expected_version: 2 });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("invalid_state");
    for (const bad of [randomUUID(), second.conditions[0].id, "not-a-uuid"]) {
      const r = await satisfy(invoice.id, bad, { expected_version: 2 });
      expect(r.status, bad).toBe(404);
      expect(r.body.error.code).toBe("not_found");
    }
    const stale = await satisfy(invoice.id, invoice.conditions[1].id, { expected_version: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe("version_conflict");
    for (const [body, path] of [
      [{}, "body.expected_version"],
      [{ expected_version: 2, satisfied_on: "yesterday" }, "body.satisfied_on"],
      [{ expected_version: 2, proof: "x" }, "body.proof"],
    ] as const) {
      const r = await satisfy(invoice.id, invoice.conditions[1].id, body);
      expect(r.status).toBe(422);
      expect(r.body.error.message).toContain(path);
    }
    const foreign = await satisfy(invoice.id, invoice.conditions[1].id, { expected_version: 2 }, other);
    expect(foreign.status).toBe(404);
    const d = (await org.api.get(`/obligations/${invoice.id}`)).body;
    expect(d.version).toBe(2);
    expect(d.conditions[1].status).toBe("waiting");
  });

  it("waive_condition counts the condition as met from today and recalculates; refused when not waiting or unknown", async () => {
    const { invoice } = await registerObligation(org.api, milestoneBody());
    const acc = invoice.conditions[1];
    const unknown = await org.api.post(`/obligations/${invoice.id}/actions`, { action: "waive_condition", expected_version: 1, condition_id: randomUUID() });
    expect(unknown.status).toBe(404);
    const r = await org.api.post(`/obligations/${invoice.id}/actions`, { action: "waive_condition", expected_version: 1, condition_id: acc.id });
    expect(r.status, r.text).toBe(200);
    expect(r.body.event_type).toBe("obligation.condition_waived");
    expect(r.body.invoice.conditions[1]).toMatchObject({ status: "waived", satisfied_on: dayOffset(0) });
    expect(r.body.invoice.payment_terms[2]).toMatchObject({ triggered_on: dayOffset(0), payable_on: dayOffset(0) });
    expect([r.body.invoice.payable_minor, r.body.invoice.due_minor, r.body.invoice.condition_status]).toEqual(["70000", "70000", "pending"]);
    const twice = await org.api.post(`/obligations/${invoice.id}/actions`, { action: "waive_condition", expected_version: 2, condition_id: acc.id });
    expect(twice.status).toBe(409);
    expect(twice.body.error.code).toBe("invalid_state");
    const sat = await satisfy(invoice.id, acc.id, { expected_version: 2 });
    expect(sat.status).toBe(409);
    expect(sat.body.error.code).toBe("invalid_state");
    // waiving the last one completes the summary
    const last = await org.api.post(`/obligations/${invoice.id}/actions`, {
      action: "waive_condition",
      expected_version: 2,
      condition_id: invoice.conditions[0].id,
    });
    expect(last.body.invoice.condition_status).toBe("satisfied");
    expect(last.body.invoice.payable_minor).toBe("100000");
  });

  it("50 concurrent satisfy calls with one expected_version: exactly one wins", async () => {
    const { invoice } = await registerObligation(org.api, milestoneBody());
    const rs = await Promise.all(
      Array.from({ length: 50 }, (_, i) => satisfy(invoice.id, invoice.conditions[i % 2].id, { expected_version: 1, evidence_reference: `E-${i}` })),
    );
    expect(rs.filter((r) => r.status === 200)).toHaveLength(1);
    expect(rs.filter((r) => r.status === 409 && r.body.error.code === "version_conflict")).toHaveLength(49);
    const d = (await org.api.get(`/obligations/${invoice.id}`)).body;
    expect(d.version).toBe(2);
    expect(d.conditions.filter((c: any) => c.status === "satisfied")).toHaveLength(1);
  });
});
