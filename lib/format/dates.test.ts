import { describe, expect, it } from "vitest";
import { formatDate, formatDateTime } from "@/lib/format/dates";

describe("dates for people", () => {
  it("formats calendar dates without shifting a day", () => {
    expect(formatDate("2026-12-31", ["en-US"])).toBe("December 31, 2026");
    expect(formatDate("2026-01-01", "de-DE")).toBe("1. Januar 2026");
    expect(formatDate("", ["en-US"])).toBe("");
    expect(formatDate("2026-12-31", "not a locale!")).toMatch(/2026/); // a bad locale falls back
  });

  it("leaves an unparseable timestamp as it is", () => {
    expect(formatDateTime("nope", "en-US")).toBe("nope");
    expect(formatDateTime("2026-11-22T10:00:00Z", "en-US")).toMatch(/2026/);
  });
});
