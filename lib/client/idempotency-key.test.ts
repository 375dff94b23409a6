import { describe, expect, it } from "vitest";
import { newIdempotencyKey } from "@/lib/client/idempotency-key";

describe("newIdempotencyKey", () => {
  it("is a version 4 UUID", () => {
    for (let i = 0; i < 200; i++) expect(newIdempotencyKey()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
  it("does not repeat", () => {
    const keys = new Set(Array.from({ length: 1000 }, () => newIdempotencyKey()));
    expect(keys.size).toBe(1000);
  });
  it("does not need crypto.randomUUID (absent outside secure contexts)", () => {
    const original = crypto.randomUUID;
    Object.defineProperty(crypto, "randomUUID", { value: undefined, configurable: true });
    try {
      expect(newIdempotencyKey()).toHaveLength(36);
    } finally {
      Object.defineProperty(crypto, "randomUUID", { value: original, configurable: true });
    }
  });
});
