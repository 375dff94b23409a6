import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import type { Api } from "./support/api";
import { apiKeyWith, newOrg, signedIn, userWith, type OrgFixture } from "./support/fixtures";

// §11 over HTTP: GET/PUT /reminder-policy (who may, what is valid, what is stored).

const put = (api: Api, body: unknown, key = `t-${randomUUID()}`) => api.call("PUT", "/reminder-policy", { body, headers: { "idempotency-key": key } });

describe("reminder policy", () => {
  let org: OrgFixture;
  let owner: Api;
  beforeAll(async () => {
    org = await newOrg("Reminder Policy Ltd");
    owner = await signedIn(org.email);
  });

  it("GET answers the default; PUT needs an owner or admin session; bad input is 422", async () => {
    const g = await org.api.get("/reminder-policy");
    expect(g.status, g.text).toBe(200);
    expect(g.body).toEqual({ enabled: false, steps: [], channel: "webhook", sender_name: "", reply_to: "", late_payment_interest: null, updated_at: "" });
    const body = {
      enabled: true,
      steps: [
        { offset_days: 7, tone: "firm" },
        { offset_days: -3, tone: "friendly" },
      ],
      channel: "email",
      sender_name: "Acme Receivables",
      reply_to: "ar@acme.example",
      late_payment_interest: { enabled: true, reference_rate_basis_points: 215, margin_basis_points: 800, fixed_compensation_minor: "4000" },
    };
    const byKey = await put(org.api, body);
    expect(byKey.status, byKey.text).toBe(403);
    expect(byKey.body.error.code).toBe("insufficient_scope");
    const member = await signedIn((await userWith(org, "member")).email);
    const byMember = await put(member, body);
    expect(byMember.status, byMember.text).toBe(403);
    expect(byMember.body.error.code).toBe("insufficient_permission");
    expect((await member.get("/reminder-policy")).status).toBe(200);
    const reader = await apiKeyWith(org, ["obligations:read"]);
    expect((await reader.get("/reminder-policy")).status).toBe(200);
    const noKey = await owner.call("PUT", "/reminder-policy", { body });
    expect(noKey.status).toBe(400);
    for (const bad of [
      { ...body, channel: "sms" },
      { ...body, steps: [{ offset_days: 1, tone: "rude" }] },
      { ...body, steps: [{ offset_days: 1.5, tone: "firm" }] },
      {
        ...body,
        steps: [
          { offset_days: 1, tone: "firm" },
          { offset_days: 1, tone: "final" },
        ],
      },
      { ...body, reply_to: "not an address" },
      { ...body, late_payment_interest: { enabled: true, reference_rate_basis_points: -1, margin_basis_points: 800 } },
      { ...body, late_payment_interest: { enabled: true, reference_rate_basis_points: 100, margin_basis_points: 800, fixed_compensation_minor: "-5" } },
      { steps: [], channel: "email" },
    ]) {
      const r = await put(owner, bad);
      expect(r.status, JSON.stringify(bad)).toBe(422);
      expect(r.body.error.code).toBe("validation_failed");
    }
    const ok = await put(owner, body);
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).toMatchObject({ ...body, steps: [body.steps[1], body.steps[0]] });
    expect(ok.body.updated_at).not.toBe("");
    expect((await org.api.get("/reminder-policy")).body).toEqual(ok.body);
    // one event per change, in its transaction: the policy after, the one before
    const events = await db().event.findMany({ where: { organizationId: org.organizationId, type: "reminder_policy.updated" } });
    expect(events).toHaveLength(1);
    expect(events[0].data).toMatchObject({ reminder_policy: ok.body, detail: { before: { enabled: false, updated_at: "" } } });
    const admin = await signedIn((await userWith(org, "admin")).email);
    const off = await put(admin, { enabled: false, steps: [], channel: "webhook" });
    expect(off.status, off.text).toBe(200);
    expect(off.body).toMatchObject({ enabled: false, steps: [], channel: "webhook", sender_name: "", reply_to: "", late_payment_interest: null });
    // another organization sees only its own
    const other = await newOrg("Other Policy Ltd");
    expect((await other.api.get("/reminder-policy")).body.updated_at).toBe("");
    const doc = await org.api.get("/openapi.json");
    expect(doc.body.paths["/reminder-policy"].put).toBeDefined();
  });
});
