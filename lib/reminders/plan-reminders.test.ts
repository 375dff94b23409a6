import { describe, expect, it } from "vitest";
import { planReminders } from "@/lib/reminders/plan-reminders";
import { lateInterestMinor } from "@/lib/reminders/interest";
import type { ReminderStep } from "@/lib/reminders/view";

const steps: ReminderStep[] = [
  { offset_days: -3, tone: "friendly" },
  { offset_days: 1, tone: "friendly" },
  { offset_days: 7, tone: "firm" },
  { offset_days: 30, tone: "final" },
];

describe("planReminders", () => {
  it("sends the step reached today and names the next date", () => {
    expect(planReminders({ steps, dueDate: "2026-12-10", today: "2026-12-07", recorded: new Set() })).toEqual({ send: steps[0], skip: [], next: "2026-12-11" });
    expect(planReminders({ steps, dueDate: "2026-12-10", today: "2026-12-06", recorded: new Set() })).toEqual({ send: null, skip: [], next: "2026-12-07" });
  });
  it("several reached at once: only the latest, the earlier ones skipped", () => {
    const p = planReminders({ steps, dueDate: "2026-12-10", today: "2026-12-20", recorded: new Set([-3]) });
    expect(p.send).toEqual(steps[2]);
    expect(p.skip).toEqual([steps[1]]);
    expect(p.next).toBe("2027-01-09");
  });
  it("a step added before one already recorded is skipped, never sent", () => {
    const p = planReminders({ steps, dueDate: "2026-12-10", today: "2026-12-20", recorded: new Set([7]) });
    expect(p).toEqual({ send: null, skip: [steps[0], steps[1]], next: "2027-01-09" });
  });
  it("nothing once every step is recorded, nothing without a due date", () => {
    expect(planReminders({ steps, dueDate: "2026-12-10", today: "2027-03-01", recorded: new Set([-3, 1, 7, 30]) })).toEqual({
      send: null,
      skip: [],
      next: null,
    });
    expect(planReminders({ steps, dueDate: null, today: "2027-03-01", recorded: new Set() })).toEqual({ send: null, skip: [], next: null });
  });
});

describe("lateInterestMinor", () => {
  it("simple daily interest, half up", () => {
    // EUR 10,000.00 at 10.15% (215 + 800 bp) for 30 days: 1,000,000 × 0.1015 × 30 / 365 = 8342.47 -> 8342
    expect(lateInterestMinor(1_000_000n, 1015, 30)).toBe(8342n);
    // 100.00 at 10% for 1 day: 10000 × 1000 / 3,650,000 = 2.739... -> 3
    expect(lateInterestMinor(10_000n, 1000, 1)).toBe(3n);
    expect(lateInterestMinor(0n, 1000, 10)).toBe(0n);
    expect(lateInterestMinor(10_000n, 1000, 0)).toBe(0n);
  });
});
