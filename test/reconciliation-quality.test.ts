import path from "node:path";
import { describe, expect, it } from "vitest";
import { baseUrl } from "./support/api";
import { TEST_PASSWORD, newOrg } from "./support/fixtures";
import { CATEGORIES, QUALITY_SETTINGS, applySettings, figures, httpClient, labeledPlan, problems, runLabeledSet } from "./support/labeled-reconciliation";

// A slice of the labeled reconciliation set (every category, about a fifth of the cases of
// `npm run bench:reconciliation-quality`, plus the third-party camt sample statements as
// negatives) through the real server: §12's targets hold. The full set and its figures per
// kind are in docs/reconciliation.md.
const allocation = (e: { obligationId: string; amountMinor: bigint }) => ({ obligation_id: e.obligationId, amount_minor: e.amountMinor.toString() });

describe("reconciliation quality on the labeled set (slice)", () => {
  it("`confident` with a 25.00 / 2 % tolerance: automatic allocations 100 % right, >= 80 % touchless, top-1 >= 98 %, nothing above low without a match", {
    timeout: 300_000,
  }, async () => {
    const main = await newOrg("Labeled Set Org");
    const other = await newOrg("Other Tenant Org");
    await applySettings(baseUrl(), { email: main.email, password: TEST_PASSWORD }, QUALITY_SETTINGS);
    const plan = labeledPlan(20261124, 0.2);
    expect(new Set(plan.cases.map((c) => c.category)).size).toBe(Object.keys(CATEGORIES).length - 1);
    const outcomes = await runLabeledSet(
      plan,
      { main: httpClient(baseUrl(), main.apiKey), other: httpClient(baseUrl(), other.apiKey) },
      { fixtures: (file) => file.includes(`${path.sep}camt${path.sep}`), mode: "confident" },
    );
    const f = figures(outcomes);
    const report = problems(outcomes)
      .map(({ kind, o }) => `${kind}: [${o.category}] ${o.note} -> ${JSON.stringify(o.top)}`)
      .join("\n");
    expect(f.withTrueMatch).toBeGreaterThan(80);
    expect(f.transactions - f.withTrueMatch).toBeGreaterThanOrEqual(25);
    expect(f.auto.precision.of, "some automatic allocations were made").toBeGreaterThan(40);
    expect(f.auto.precision.n, report).toBe(f.auto.precision.of);
    expect(f.auto.recall.value, report).toBe(1);
    expect(f.touchless.value!, report).toBeGreaterThanOrEqual(0.8);
    expect(f.top.recall.value!, report).toBeGreaterThanOrEqual(0.98);
    expect(f.byLevel.find((l) => l.level === "medium")!.negativesSuggested, report).toBe(0);
    // baskets: allocated at import across their obligations, in item order
    const baskets = outcomes.filter((o) => o.category === "rf_basket");
    expect(baskets.length).toBeGreaterThanOrEqual(2);
    expect(baskets.every((o) => o.expected.length >= 2)).toBe(true);
    for (const o of baskets) expect(o.auto, `${o.note}: allocated across the basket`).toEqual(expect.arrayContaining(o.expected.map(allocation)));
    for (const o of baskets) expect(o.auto.length, o.note).toBe(o.expected.length);
  });

  it("`reference_only`: no automatic allocation without a valid RF reference", { timeout: 300_000 }, async () => {
    const main = await newOrg("Labeled Set Reference Only");
    const other = await newOrg("Other Tenant Reference Only");
    const plan = labeledPlan(7, 0.1);
    const outcomes = await runLabeledSet(plan, { main: httpClient(baseUrl(), main.apiKey), other: httpClient(baseUrl(), other.apiKey) }, { fixtures: false });
    const f = figures(outcomes);
    const report = problems(outcomes)
      .map(({ kind, o }) => `${kind}: [${o.category}] ${o.note} -> ${JSON.stringify(o.top)}`)
      .join("\n");
    expect(f.auto.precision.of).toBeGreaterThan(5);
    expect(f.auto.precision.n, report).toBe(f.auto.precision.of);
    const autos = outcomes.filter((o) => o.auto.length > 0);
    expect(
      autos.every((o) => o.category.startsWith("rf_")),
      autos.map((o) => o.category).join(", "),
    ).toBe(true);
    // a basket's reference is an RF reference too: allocated under `reference_only`
    const baskets = outcomes.filter((o) => o.category === "rf_basket");
    expect(baskets.length).toBeGreaterThanOrEqual(2);
    for (const o of baskets) expect(o.auto, o.note).toEqual(expect.arrayContaining(o.expected.map(allocation)));
  });
});
