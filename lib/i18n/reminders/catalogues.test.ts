import { describe, expect, it } from "vitest";
import { RECIPIENT_LANGUAGES } from "@/lib/i18n/recipient";
import { REMINDER_CATALOGUES } from "./index";

// Key parity: every language has exactly the keys of English (nested ones too), none empty,
// with the same placeholders; and translates rather than copies.
const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

function flatten(o: Record<string, unknown>, prefix = ""): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(o)) {
    if (typeof v === "string") out[prefix + k] = v;
    else Object.assign(out, flatten(v as Record<string, unknown>, `${prefix}${k}.`));
  }
  return out;
}

describe("reminder catalogues", () => {
  const english = flatten(REMINDER_CATALOGUES.en);
  const keys = Object.keys(english).sort();
  for (const lang of RECIPIENT_LANGUAGES) {
    it(`${lang} has exactly the keys of English, none empty, with the same placeholders`, () => {
      const c = flatten(REMINDER_CATALOGUES[lang]);
      expect(Object.keys(c).sort()).toEqual(keys);
      for (const [k, v] of Object.entries(c)) {
        expect(v.trim(), `${lang} ${k}`).not.toBe("");
        expect(placeholders(v), `${lang} ${k}`).toEqual(placeholders(english[k]));
      }
    });
  }
  it("translates rather than copies (most texts differ from English)", () => {
    for (const lang of RECIPIENT_LANGUAGES.filter((l) => l !== "en")) {
      const c = flatten(REMINDER_CATALOGUES[lang]);
      const same = keys.filter((k) => c[k] === english[k]);
      // IBAN, BIC and a few bank terms are the same words in every language
      expect(same.length, `${lang}: ${same.join(", ")}`).toBeLessThan(keys.length / 4);
    }
  });
});
