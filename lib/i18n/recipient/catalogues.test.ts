import { describe, expect, it } from "vitest";
import { RECIPIENT_LANGUAGES, catalogue, chooseLanguage, parseAcceptLanguage } from "./index";
import { interpolate } from "./interpolate";

const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe("recipient page catalogues", () => {
  const english = catalogue("en");
  const keys = Object.keys(english).sort();

  for (const lang of RECIPIENT_LANGUAGES) {
    it(`${lang} has exactly the keys of English, none empty, with the same placeholders`, () => {
      const c = catalogue(lang);
      expect(Object.keys(c).sort()).toEqual(keys);
      for (const [k, v] of Object.entries(c)) {
        expect(v.trim(), `${lang} ${k}`).not.toBe("");
        expect(placeholders(v), `${lang} ${k}`).toEqual(placeholders(english[k as keyof typeof english]));
      }
    });
  }

  it("translates rather than copies (most texts differ from English)", () => {
    for (const lang of RECIPIENT_LANGUAGES.filter((l) => l !== "en")) {
      const c = catalogue(lang);
      const same = keys.filter((k) => c[k as keyof typeof c] === english[k as keyof typeof english]);
      expect(same.length, `${lang}: ${same.join(", ")}`).toBeLessThan(keys.length / 10);
    }
  });
});

describe("language choice", () => {
  it("orders Accept-Language by q and ignores junk", () => {
    expect(parseAcceptLanguage("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5")).toEqual(["fr-CH", "fr", "en", "de"]);
    expect(parseAcceptLanguage("en;q=0.1, ja")).toEqual(["ja", "en"]);
    expect(parseAcceptLanguage("!!, de;q=0")).toEqual([]);
    expect(parseAcceptLanguage(undefined)).toEqual([]);
  });

  it("prefers the switcher, then the cookie, then the browser, then English", () => {
    expect(chooseLanguage({ query: "it", cookie: "de", acceptLanguage: "fr" })).toEqual({ lang: "it", formatLocale: "it", explicit: true });
    expect(chooseLanguage({ query: "xx", cookie: "de", acceptLanguage: "fr" }).lang).toBe("de");
    expect(chooseLanguage({ acceptLanguage: "pt-BR, nl-BE;q=0.8" })).toEqual({ lang: "nl", formatLocale: "nl-BE", explicit: false });
    expect(chooseLanguage({ acceptLanguage: "pt-BR" }).lang).toBe("en");
    expect(chooseLanguage({}).formatLocale).toBe("en");
  });

  it("interpolates named values", () => {
    expect(interpolate("{issuer} has {n}", { issuer: "Acme", n: 2 })).toBe("Acme has 2");
    expect(interpolate("{missing}")).toBe("{missing}");
  });
});
