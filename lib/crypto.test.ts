import { beforeAll, describe, expect, it } from "vitest";
import { isSealed, openSecret, sealSecret } from "@/lib/crypto";
import { sealDeflated } from "@/test/support/legacy-box";

// The sealed box of stored secrets and stored idempotent responses (AES-256-GCM under APP_SECRET).
describe("sealSecret / openSecret", () => {
  beforeAll(() => {
    process.env.APP_SECRET ??= "unit-test-app-secret-0123456789abcdef";
  });

  it("round-trips any text, the empty one included (a stored 204 has an empty body)", () => {
    for (const plain of ["", "{}", '{"hosted_url":"https://x.example/r/1#tok"}', "€ ünïcödé \u{1F4B6}", "x".repeat(100_000)]) {
      const sealed = sealSecret(plain);
      expect(sealed.startsWith("v1.")).toBe(true);
      if (plain.length > 8) expect(sealed).not.toContain(plain.slice(0, 8));
      expect(openSecret(sealed)).toBe(plain);
    }
  });

  it("opens a v2 box (deflated, then sealed: how stored responses were written before migration 0018)", () => {
    for (const plain of ["", "{}", '{"hosted_url":"https://x.example/r/1#tok"}', "€ ünïcödé \u{1F4B6}", "x".repeat(100_000)]) {
      const sealed = sealDeflated(plain);
      expect(sealed.startsWith("v2.")).toBe(true);
      expect(openSecret(sealed)).toBe(plain);
    }
  });

  it("seals the same text differently each time, and refuses a tampered or foreign box", () => {
    const a = sealSecret("same");
    expect(sealSecret("same")).not.toBe(a);
    const [v, iv, tag, ct] = a.split(".");
    const flipped = `${ct[0] === "A" ? "B" : "A"}${ct.slice(1)}`;
    expect(() => openSecret([v, iv, tag, flipped].join("."))).toThrow();
    expect(() => openSecret(["v2", iv, tag, ct].join("."))).toThrow(); // the version is not swappable: v1's bytes are no deflate stream
    expect(() => openSecret("v1.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA.AAAA")).toThrow();
    expect(() => openSecret("v3.a.b.c")).toThrow("unknown secret format");
    expect(() => openSecret("{}")).toThrow("unknown secret format");
  });

  it("tells a box of either version from a plain text", () => {
    expect(isSealed(sealSecret("x"))).toBe(true);
    expect(isSealed(sealDeflated("x"))).toBe(true);
    for (const plain of ["", "{}", '{"a":1}', "v1", "v1x", "v2", "v3.a.b.c", ".v1.a"]) expect(isSealed(plain)).toBe(false);
  });
});

describe("hmacBase64Url", () => {
  it("derives what an HMAC keyed with the text `purpose:APP_SECRET` gives (hosted links issued before stay valid)", async () => {
    const { createHmac } = await import("node:crypto");
    const { hmacBase64Url } = await import("@/lib/crypto");
    const { appSecret } = await import("@/lib/env");
    for (const purpose of ["payment-request-token", "idempotency-fingerprint"]) {
      const expected = createHmac("sha256", `${purpose}:${appSecret()}`).update("3f1c2d7e-1234-4a5b-8c9d-0123456789ab:1").digest("base64url");
      expect(hmacBase64Url(purpose, "3f1c2d7e-1234-4a5b-8c9d-0123456789ab:1")).toBe(expected);
      expect(hmacBase64Url(purpose, "3f1c2d7e-1234-4a5b-8c9d-0123456789ab:1")).toBe(expected);
    }
  });
});
