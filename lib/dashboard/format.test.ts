import { describe, expect, it } from "vitest";
import { daysBetween, eventLabel, formatDay, formatTimestamp, money } from "./format";
import { EVENT_TYPES } from "@/lib/events/event-types";
import { pickLocale } from "./locale";

describe("dashboard formatting", () => {
  it("formats calendar dates without shifting them across time zones", () => {
    expect(formatDay("2026-12-31", "en-US")).toBe("Dec 31, 2026");
    expect(formatDay("2026-01-01", "en-GB")).toBe("1 Jan 2026");
    expect(formatDay("", "en-US")).toBe("");
  });
  it("formats timestamps in UTC and says so", () => {
    expect(formatTimestamp("2026-11-22T10:05:00.000Z", "en-GB")).toMatch(/22 Nov 2026.*10:05.*UTC/);
    expect(formatTimestamp("", "en-GB")).toBe("");
  });
  it("counts days between dates", () => {
    expect(daysBetween("2026-02-27", "2026-03-01")).toBe(2);
    expect(daysBetween("2026-03-01", "2026-03-01")).toBe(0);
  });
  it("formats money through the shared helper", () => {
    expect(money("150000", "JPY", "en-US")).toBe("¥150,000");
  });
});

describe("pickLocale", () => {
  it("takes the best supported language of Accept-Language", () => {
    expect(pickLocale("de-DE,de;q=0.9,en;q=0.8")).toBe("de-DE");
    expect(pickLocale("en;q=0.5, fr-CA;q=0.9")).toBe("fr-CA");
    expect(pickLocale("")).toBe("en-US");
    expect(pickLocale("*")).toBe("en-US");
    expect(pickLocale("not a tag!!, en-GB")).toBe("en-GB");
  });
});

describe("event labels", () => {
  it("every event type, the scheduled ones included, has a readable label", () => {
    for (const t of EVENT_TYPES) expect(eventLabel(t), t).not.toBe(t);
    expect(eventLabel("obligation.overdue")).toBe("Overdue");
    expect(eventLabel("payment_request.expiring")).toBe("Link expiring soon");
  });
});
