import path from "node:path";
import { describe, expect, it } from "vitest";
import { baseUrl } from "./support/api";
import { newOrg } from "./support/fixtures";
import { figures, httpClient, labeledPlan, problems, runLabeledSet } from "./support/labeled-reconciliation";

// A slice of the labeled reconciliation set (every category, about a fifth of the cases
// of `npm run bench:reconciliation-quality`, plus the third-party camt sample statements as
// negatives) through the real server: the quality targets hold as thresholds. The full set
// and its figures per category are in docs/reconciliation.md.
describe("reconciliation quality on the labeled set (slice)", () => {
  it("automatic allocations are 100 % precise; the top suggestion is >= 95 % precise at >= 90 % recall", { timeout: 120_000 }, async () => {
    const main = await newOrg("Labeled Set Org");
    const other = await newOrg("Other Tenant Org");
    const plan = labeledPlan(20261124, 0.2);
    expect(new Set(plan.cases.map((c) => c.category)).size).toBe(16);
    // The camt sample statements only (the MT940 ones add time, not other kinds of negatives).
    const outcomes = await runLabeledSet(
      plan,
      { main: httpClient(baseUrl(), main.apiKey), other: httpClient(baseUrl(), other.apiKey) },
      { fixtures: (file) => file.includes(`${path.sep}camt${path.sep}`) },
    );
    const f = figures(outcomes);
    const report = problems(outcomes).map(({ kind, o }) => `${kind}: [${o.category}] ${o.note} -> ${JSON.stringify(o.top)}`);
    expect(f.withTrueMatch).toBeGreaterThan(40);
    expect(f.transactions - f.withTrueMatch).toBeGreaterThanOrEqual(25); // negatives: generated and the camt sample statements
    expect(f.auto.precision.of, "some automatic allocations were made").toBeGreaterThan(10);
    expect(f.auto.precision.n, report.join("\n")).toBe(f.auto.precision.of);
    expect(f.auto.recall.value, report.join("\n")).toBe(1);
    expect(f.top.precision.value!, report.join("\n")).toBeGreaterThanOrEqual(0.95);
    expect(f.top.recall.value!, report.join("\n")).toBeGreaterThanOrEqual(0.9);
    // A transaction without a true match never gets an exact or high suggestion.
    expect(f.byLevel.find((l) => l.level === "high")!.negativesSuggested, report.join("\n")).toBe(0);
  });
});
