import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { db, sql } from "@/lib/db/client";
import { loadObligation, loadStatements, obligationUpdate } from "@/lib/obligations/load";
import { toDate, todayUtc } from "@/lib/schemas/common";
import { newOrg, type OrgFixture } from "./support/fixtures";
import { milestoneBody, registerObligation } from "./support/obligations";

// The statements that load an obligation with its parts (lib/obligations/load.ts: detail, the
// payer's invoice and exchange, every action's reload, a list page's missing projections)
// name the organization as a VALUE on every tenant table, the parts' correlated subqueries
// included (docs/scaling.md "Towards one database per tenant group: Citus"). EXPLAINed with
// real parameters: on every database no scan pairs organization_id with another row's
// column (what PostgreSQL shows for a subquery correlated by `x.organization_id =
// o.organization_id`); on a Citus coordinator the statement goes to one shard (a router
// plan: every "Task Count" is 1).

type Bindable<P> = { bind(p: P): { text: string; values: unknown[] } };

const literal = (v: unknown): string =>
  v === null || v === undefined ? "NULL" : Array.isArray(v) ? `'{${v.join(",")}}'` : `'${String(v).replace(/'/g, "''")}'`;

// The plan of one statement with its values (written in as literals when the server cannot
// plan the parameterized form, as scripts/bench/citus.ts does).
async function plan<P>(s: Bindable<P>, p: P): Promise<string> {
  const { text, values } = s.bind(p);
  const explain = async (t: string, v: unknown[]) =>
    (await sql<{ "QUERY PLAN": string }>(db(), `EXPLAIN (COSTS OFF) ${t}`, v)).map((r) => r["QUERY PLAN"]).join("\n");
  try {
    return await explain(text, values);
  } catch {
    return explain(
      text.replace(/\$(\d+)/g, (_m, n) => literal(values[Number(n) - 1])),
      [],
    );
  }
}

// What keeps a statement from one shard, in words ([] when it is routed).
function unrouted(planText: string, citus: boolean): string[] {
  const problems = [...planText.matchAll(/organization_id = ([a-z_][a-z0-9_]*\.organization_id)/g)].map((m) => `organization_id paired with ${m[1]}`);
  if (citus) {
    for (const m of planText.matchAll(/Task Count: (\d+)/g)) if (m[1] !== "1") problems.push(`Task Count: ${m[1]}`);
    if (!/Task Count: /.test(planText)) problems.push("no Citus task");
  }
  return problems;
}

describe("loading an obligation names the organization on every tenant table", () => {
  let org: OrgFixture;
  let id: string;
  let citus = false;

  beforeAll(async () => {
    citus = (await sql(db(), "SELECT 1 FROM pg_extension WHERE extname = 'citus'")).length > 0;
    org = await newOrg("Routing Org");
    const r = await registerObligation(org.api, milestoneBody());
    id = r.obligation.id;
  });

  it("loads the parts (conditions, terms, payment request, organization name)", async () => {
    const o = await loadObligation(db(), { organizationId: org.organizationId, obligationId: id });
    expect(o.conditions.map((c) => c.key)).toEqual(["delivery", "acceptance"]);
    expect(o.paymentTerms.map((t) => t.sequence)).toEqual([1, 2, 3]);
    expect(o.paymentRequest?.obligationId).toBe(id);
    expect(o.organizationName).toBe("Routing Org");
  });

  it("reads: by id, by id of a type, by ids, a page", async () => {
    const { byId, byIdOfType, byIds, page } = loadStatements();
    const orgId = org.organizationId;
    const plans = {
      byId: await plan(byId, { org: orgId, id }),
      byIdOfType: await plan(byIdOfType, { org: orgId, id, type: "invoice" }),
      byIds: await plan(byIds, { org: orgId, ids: [id, randomUUID()] }),
      page: await plan(page, { org: orgId, type: "invoice", limit: 50, offset: 0 }),
    };
    for (const [name, text] of Object.entries(plans)) expect(unrouted(text, citus), `${name}:\n${text}`).toEqual([]);
    // the parts are in the plan (a scan of each part's table), named by the organization's value
    expect(plans.byId).toMatch(/obligation_conditions/);
    expect(plans.byId).toMatch(/payment_terms/);
  });

  it("the update of an action, with its parts read back", async () => {
    const { statement, values } = obligationUpdate({
      organizationId: org.organizationId,
      obligationId: id,
      set: { version: { increment: 1 }, updatedAt: new Date(), nextScheduledOn: toDate(todayUtc()) },
    });
    const text = await plan(statement, values);
    expect(unrouted(text, citus), text).toEqual([]);
    expect(text).toMatch(/payment_terms/);
  });

  it("finds a correlated pairing when there is one (the check can fail)", () => {
    const correlated =
      "SubPlan 1\n  ->  Index Scan using obligation_conditions_pkey on obligation_conditions c\n        Index Cond: ((organization_id = o.organization_id) AND (obligation_id = o.id))";
    expect(unrouted(correlated, false)).toEqual(["organization_id paired with o.organization_id"]);
    expect(unrouted("Custom Scan (Citus Adaptive)\n  Task Count: 32", true)).toEqual(["Task Count: 32"]);
  });
});
