import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { seedDemoObligations } from "@/lib/organizations/seed-demo-obligations";
import { ZInvoiceList, ZObligationDetail, ZObligationList } from "@/lib/schemas/obligations";
import { Api } from "./support/api";
import { newOrg } from "./support/fixtures";
import { startServer } from "./support/server";

// The demo data (npm start on an empty database) is built with the domain functions: here
// it is seeded into a fresh organization and read back over HTTP.
describe("demo obligations", () => {
  it("seeds six well-formed obligations in various states", async () => {
    const org = await newOrg("Demo Company Ltd");
    await seedDemoObligations(org.organizationId, org.userId);
    const list = ZObligationList.parse((await org.api.get("/obligations")).body);
    expect(list.items).toHaveLength(6);
    const byRef = Object.fromEntries(list.items.map((o) => [o.business_context.invoice_number, o]));
    expect(byRef["INV-2026-1001"]).toMatchObject({ status: "OBLIGATION_CAPTURED", version: 1 });
    expect(byRef["INV-2026-0998"]).toMatchObject({ status: "PAYMENT_REQUESTED", version: 4, expected_payment_date: expect.stringMatching(/^\d{4}-/) });
    expect(byRef["CTR-2026-014"]).toMatchObject({ status: "PAYMENT_REQUESTED", payable_minor: "2500000", condition: { status: "satisfied" } });
    expect(byRef["CTR-2026-014-R"]).toMatchObject({ status: "OBLIGATION_CAPTURED", payable_minor: "0", condition: { status: "pending" } });
    expect(byRef["RENT-DEC"]).toMatchObject({ organization_role: "debtor", debtor: { name: "Demo Company Ltd" }, creditor: { name: "Harbour Properties" } });
    expect(byRef["INV-2026-0990"]).toMatchObject({ status: "PAYMENT_CLAIMED", acknowledged: true, due_minor: "75000" });
    for (const o of list.items) {
      const d = ZObligationDetail.parse((await org.api.get(`/obligations/${o.id}`)).body);
      expect(d.audit_trail).toHaveLength(d.version);
      expect(d.audit_trail[0].event_type).toBe("obligation.registered");
    }
    expect(ZInvoiceList.parse((await org.api.get("/invoices")).body).items).toHaveLength(3);
  });

  // npm start on an empty database prints the demo sign-in and API key once; the password is
  // random (no known sign-in on a server started with the default DEMO_SEED=on).
  it("npm start on an empty database creates the demo owner with a random password, shown once", async () => {
    const server = await startServer({ env: { DEMO_SEED: "on" }, label: "demo" });
    try {
      const printed = readFileSync(server.logFile, "utf8");
      const signIn = /Sign in: +(\S+) \/ (\S+)/.exec(printed);
      const apiKey = /API key: +(\S+)/.exec(printed);
      expect(signIn?.[1]).toBe("demo@example.com");
      expect(signIn?.[2]).toMatch(/^[A-Za-z0-9_-]{16,}$/);
      expect(signIn?.[2]).not.toBe("demo-password-123");
      const staff = new Api(server.baseUrl);
      const session = await staff.post("/session", { email: signIn![1], password: signIn![2] }, { idempotencyKey: null });
      expect(session.status, session.text).toBe(200);
      const wrong = await staff.post("/session", { email: signIn![1], password: "demo-password-123" }, { idempotencyKey: null });
      expect(wrong.status).toBe(401);
      const list = await new Api(server.baseUrl, apiKey![1]).get("/obligations");
      expect(list.status).toBe(200);
      expect(list.body.items).toHaveLength(6);
    } finally {
      await server.stop();
    }
  });
});
