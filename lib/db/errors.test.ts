import { describe, expect, it } from "vitest";
import { isUniqueViolationOf } from "@/lib/db/errors";

const INDEX = "obligations_live_external_reference_key";

describe("isUniqueViolationOf", () => {
  it("recognises the index by name on PostgreSQL and on Citus (a shard's index, XX000 from a statement with writing CTEs)", () => {
    const message = (name: string) => `duplicate key value violates unique constraint "${name}"`;
    expect(isUniqueViolationOf({ code: "23505", constraint: INDEX, message: message(INDEX) }, INDEX)).toBe(true);
    expect(isUniqueViolationOf({ code: "23505", message: message(`${INDEX}_102046`) }, INDEX)).toBe(true);
    expect(isUniqueViolationOf({ code: "XX000", message: message(`${INDEX}_102046`) }, INDEX)).toBe(true);
    // wrapped, as a held-back write's failure or Prisma's adapter gives it
    expect(isUniqueViolationOf({ cause: { originalCode: "23505", originalMessage: message(INDEX) } }, INDEX)).toBe(true);
  });

  it("is false for another index, another error, or an index whose name only starts alike", () => {
    expect(isUniqueViolationOf({ code: "23505", constraint: "obligations_organization_id_reference_key" }, INDEX)).toBe(false);
    expect(isUniqueViolationOf({ code: "23514", constraint: INDEX, message: "check" }, INDEX)).toBe(false);
    expect(isUniqueViolationOf({ code: "XX000", message: `something else about "${INDEX}"` }, INDEX)).toBe(false);
    expect(isUniqueViolationOf({ code: "23505", message: `duplicate key value violates unique constraint "${INDEX}s"` }, INDEX)).toBe(false);
    expect(isUniqueViolationOf(null, INDEX)).toBe(false);
  });
});
