import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// A stored list projection holds at the obligation's projection_rev, which only an UPDATE of the
// obligation's row moves (migration 0030 dropped the triggers on the parts). So the parts and
// the linked contexts' shown fields are written only where that UPDATE follows in the same
// transaction (docs/architecture.md "Stored projections"). A new writer fails here: make it
// an obligation mutation (mutateObligation), then list it.
const WRITERS = [
  "lib/contexts/link-obligation-context.ts", // mutateObligation's apply
  "lib/obligations/amend-obligation.ts", // mutateObligation's apply
  "lib/obligations/apply-issuer-action.ts", // waive_condition: mutateObligation's apply
  "lib/obligations/register-obligation.ts", // with the new row, in its one statement
  "lib/obligations/satisfy-condition.ts", // mutateObligation's apply
];

const PART = "obligation_conditions|payment_terms|obligation_context_links|business_contexts";
const WRITES = [
  /\b(obligationCondition|paymentTerm|obligationContextLink)\.(create|createMany|update|updateMany|upsert|delete|deleteMany)\b/,
  /\bbusinessContext\.(update|updateMany|upsert|delete|deleteMany)\b/,
  new RegExp(`\\b(insertInto|updateTable|deleteFrom)\\(\\s*"(${PART})`),
  new RegExp(`\\binsertJson\\(\\w+, "(${PART})"`),
  new RegExp(`\\b(INSERT INTO|UPDATE|DELETE FROM) (${PART})\\b`),
];

function files(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (name === "generated") continue;
    if (statSync(p).isDirectory()) files(p, out);
    else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) out.push(p);
  }
  return out;
}

describe("writers of an obligation's parts", () => {
  it("are the known obligation mutations and registration", () => {
    const found = [...files("lib"), ...files("app")].filter((f) => WRITES.some((re) => re.test(readFileSync(f, "utf8")))).sort();
    expect(found).toEqual(WRITERS);
  });
});
