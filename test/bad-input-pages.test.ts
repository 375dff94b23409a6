import { beforeAll, describe, expect, it } from "vitest";
import { baseUrl, fetchOnce } from "./support/api";
import { newOrg, signedIn, type OrgFixture } from "./support/fixtures";

// Bad input to the dashboard's HTML pages, over plain HTTP with a session cookie: a
// malformed id in a detail page's path is that page's 404 (never a 500).

const page = (path: string, cookie = "", init: RequestInit = {}) =>
  fetchOnce(`${baseUrl()}${path}`, { redirect: "manual", ...init, headers: { cookie, ...init.headers } });

describe("dashboard pages: bad input", () => {
  let org: OrgFixture;
  let cookie: string;
  beforeAll(async () => {
    org = await newOrg("Pages Ltd");
    cookie = (await signedIn(org.email)).cookie!;
  });

  it("a malformed id on every detail page is a 404, like an unknown one", async () => {
    for (const base of [
      "/dashboard/obligations",
      "/dashboard/payments",
      "/dashboard/contexts",
      "/dashboard/reconciliation/payments",
      "/dashboard/reconciliation/statements",
    ]) {
      for (const id of ["not-a-uuid", "00000000-0000-4000-8000-000000000000", "00000000-0000-4000-8000-00000000000Z"]) {
        const r = await page(`${base}/${id}`, cookie);
        expect(r.status, `${base}/${id}`).toBe(404);
        expect(await r.text()).toContain("Not found");
      }
    }
  });
});
