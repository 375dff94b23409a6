import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { baseUrl } from "./support/api";
import { catalogue } from "@/lib/i18n/recipient";

// How /r/{request} is served: a plain HTML document from a route handler (no Next.js client
// runtime), one module script with the response's CSP nonce, the script bundle under
// content-hashed names with immutable caching, the chosen language's catalogue as data.
const page = (path: string, headers: Record<string, string> = {}) => fetch(`${baseUrl()}${path}`, { headers, redirect: "manual" });

const nonceOf = (csp: string) => /script-src 'self' 'nonce-([A-Za-z0-9+/=]{20,})' 'strict-dynamic'/.exec(csp)?.[1];
const dataOf = (html: string) => JSON.parse(/<script type="application\/json" id="page-data">([^<]*)<\/script>/.exec(html)![1]);
const scripts = (html: string) => [...html.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1]);

describe("the hosted payer page's HTML", () => {
  it("is private, not indexed, framed by no one, with a strict CSP whose fresh nonce is on its only script", async () => {
    const id = randomUUID();
    const a = await page(`/r/${id}`);
    const b = await page(`/r/${id}`);
    expect(a.status).toBe(200);
    expect(a.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(a.headers.get("cache-control")).toBe("no-store");
    expect(a.headers.get("referrer-policy")).toBe("no-referrer");
    expect(a.headers.get("x-robots-tag")).toContain("noindex");
    const csp = a.headers.get("content-security-policy")!;
    for (const d of ["default-src 'self'", "connect-src 'self'", "object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'", "form-action 'self'"]) {
      expect(csp).toContain(d);
    }
    expect(csp).not.toContain("unsafe");
    expect(csp).not.toMatch(/https?:\/\//);
    const nonce = nonceOf(csp)!;
    expect(nonce).toBeDefined();
    expect(nonceOf(b.headers.get("content-security-policy")!)).not.toBe(nonce); // per response
    expect(csp).toContain(`style-src 'nonce-${nonce}'`);

    const html = await a.text();
    // no Next.js runtime: no /_next/ script or chunk, no inline script that runs
    expect(html).not.toContain("/_next/");
    expect(html).not.toContain("self.__next");
    const executable = scripts(html).filter((attrs) => !/type="application\/json"/.test(attrs));
    expect(executable).toHaveLength(1);
    expect(executable[0]).toContain('type="module"');
    expect(executable[0]).toContain(`nonce="${nonce}"`);
    expect(executable[0]).toMatch(/src="\/payer-assets\/portal-[A-Za-z0-9]+\.js"/);
    for (const m of html.matchAll(/<link\b([^>]*rel="modulepreload"[^>]*)>/g)) expect(m[1]).toContain(`nonce="${nonce}"`);
    expect(html).toContain(`<style nonce="${nonce}">`);
    expect(html).toMatch(/<meta name="robots" content="noindex/);
    // the island's data: the request id (lower-cased) and no token
    expect(dataOf(html)).toMatchObject({ requestId: id, lang: "en", explicit: false });
  });

  it("serves the bundle and its chunks under content-hashed names, cached for a year and immutable", async () => {
    const html = await (await page(`/r/${randomUUID()}`)).text();
    const files = [...html.matchAll(/(?:src|href)="(\/payer-assets\/[^"]+)"/g)].map((m) => m[1]);
    expect(files.length).toBeGreaterThanOrEqual(1);
    for (const f of files) {
      const res = await page(f);
      expect(res.status, f).toBe(200);
      expect(res.headers.get("content-type"), f).toMatch(/^text\/javascript/);
      expect(res.headers.get("cache-control"), f).toBe("public, max-age=31536000, immutable");
      const body = Buffer.from(await res.arrayBuffer());
      expect(body.length, f).toBeGreaterThan(0);
    }
    // names the build did not write, or that try to leave the folder, are 404
    for (const bad of ["/payer-assets/nope-ABCDEFGH.js", "/payer-assets/..%2Fmanifest.json", "/payer-assets/manifest.json"]) {
      const res = await page(bad);
      expect(res.status, bad).toBe(404);
      expect(res.headers.get("cache-control"), bad).toBe("no-store");
    }
  });

  it("picks the language from ?lang, then the fos_lang cookie, then Accept-Language, and sends only that catalogue", async () => {
    const id = randomUUID();
    const cases: [Record<string, string>, string, string, boolean, string][] = [
      [{}, "", "en", false, "en"],
      [{ "accept-language": "de-CH,de;q=0.9,en;q=0.8" }, "", "de", false, "de-CH"],
      [{ "accept-language": "de-DE", cookie: "fos_lang=ja" }, "", "ja", false, "ja"],
      [{ "accept-language": "de-DE", cookie: "fos_lang=ja" }, "?lang=fr", "fr", true, "fr"],
      [{ "accept-language": "xx" }, "?lang=zz", "en", false, "en"],
    ];
    for (const [headers, query, lang, explicit, locale] of cases) {
      const html = await (await page(`/r/${id}${query}`, headers)).text();
      const label = JSON.stringify([headers, query]);
      expect(html, label).toContain(`<html lang="${lang}">`);
      expect(dataOf(html), label).toMatchObject({ lang, explicit, locale });
      expect(dataOf(html).messages, label).toEqual(catalogue(lang as "en"));
      const t = catalogue(lang as "en");
      expect(html, label).toContain(`<title>${t["meta.title"]}</title>`);
      // the visible switcher: plain links, the current language marked
      expect(html, label).toMatch(new RegExp(`<a href="\\?lang=${lang}"[^>]*aria-current="true"`));
      expect([...html.matchAll(/<a href="\?lang=(\w+)"/g)].map((m) => m[1])).toEqual(["en", "de", "fr", "es", "it", "nl", "ja"]);
    }
  });

  it("treats a malformed request id as no request, and nothing from the address reaches the HTML unescaped", async () => {
    const html = await (await page(`/r/${encodeURIComponent('"><script>alert(1)</script>')}?lang=%3Cb%3E`)).text();
    expect(dataOf(html).requestId).toBeNull();
    expect(html).not.toContain("alert(1)");
    expect(html).not.toContain("<b>");
    const upper = randomUUID().toUpperCase();
    expect(dataOf(await (await page(`/r/${upper}`)).text()).requestId).toBe(upper.toLowerCase());
  });
});
