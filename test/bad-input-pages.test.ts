import { beforeAll, describe, expect, it } from "vitest";
import { baseUrl, fetchOnce } from "./support/api";
import { newOrg, signedIn, TEST_PASSWORD, type OrgFixture } from "./support/fixtures";

// Bad input to the dashboard's HTML pages, over plain HTTP with a session cookie: a
// malformed id in a detail page's path is that page's 404 (never a 500), and every form
// that carries a password is method="post", so a submit before hydration cannot put the
// password into a URL.

const page = (path: string, cookie = "", init: RequestInit = {}) =>
  fetchOnce(`${baseUrl()}${path}`, { redirect: "manual", ...init, headers: { cookie, ...init.headers } });

// The <form ...> opening tags of a page whose form holds an <input type="password">.
function passwordForms(html: string): string[] {
  return [...html.matchAll(/<form\b[^>]*>[\s\S]*?<\/form>/g)]
    .filter((m) => /<input\b[^>]*type="password"/.test(m[0]))
    .map((m) => /^<form\b[^>]*>/.exec(m[0])![0]);
}

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

  it("the login and account pages post their password forms", async () => {
    const login = await page("/login");
    expect(login.status).toBe(200);
    const account = await page("/dashboard/settings/account", cookie);
    expect(account.status).toBe(200);
    // Members no longer get a password from the organization (docs/administration.md, Members). The invitation
    // and reset pages render their password forms only in the browser, once the fragment's token
    // is read, so no form can be posted before hydration there.
    for (const [name, html] of [
      ["login", await login.text()],
      ["account", await account.text()],
    ]) {
      const forms = passwordForms(html);
      expect(forms.length, name).toBeGreaterThan(0);
      for (const f of forms) expect(f, name).toMatch(/\smethod="post"/);
    }
  });

  it("a submit of the login form before hydration (a plain form POST) shows the form again and signs nobody in", async () => {
    const r = await page("/login", "", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email: org.email, password: TEST_PASSWORD }).toString(),
    });
    // Next.js renders the page again for a POST without a server action: the form, empty.
    expect(r.status).toBe(200);
    expect(await r.text()).toMatch(/<input\b[^>]*type="password"/);
    expect(r.headers.getSetCookie().join("; ")).not.toMatch(/session/i);
    expect(r.headers.get("location") ?? "").not.toContain(TEST_PASSWORD);
  });
});
