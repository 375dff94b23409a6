import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { boundForImport } from "./bound-for-import";
import { statementIdentities } from "./identity";
import { parseStatement } from "./parse-statement";
import { MAX_REMITTANCE, type ParsedStatement } from "./types";

const FIXTURES = path.resolve(import.meta.dirname, "../../test/fixtures/bank");
const all = (d: string): string[] => readdirSync(d).flatMap((f) => (statSync(path.join(d, f)).isDirectory() ? all(path.join(d, f)) : [path.join(d, f)]));
const parsed = all(FIXTURES)
  .filter((f) => /\.(xml|sta)$/.test(f))
  .flatMap((f) => {
    try {
      return [parseStatement(new Uint8Array(readFileSync(f)))];
    } catch {
      return [];
    }
  });
// What the import reads of a transaction's texts (lib/reconciliation/import-bank-statement.ts).
const remittance = (s: ParsedStatement) =>
  s.transactions.map((t) => [
    [t.structuredReference, t.unstructured]
      .filter((x) => x !== "")
      .join(" ")
      .slice(0, MAX_REMITTANCE),
    (t.structuredReference || t.unstructured).slice(0, 500),
    t.counterpartyName,
  ]);

describe("boundForImport", () => {
  it("keeps every sample statement's identities and what the import reads", () => {
    expect(parsed.length).toBeGreaterThan(35);
    for (const s of parsed) {
      const bounded = boundForImport(s);
      expect(statementIdentities(bounded)).toEqual(statementIdentities(s));
      expect(remittance(bounded)).toEqual(remittance(s));
    }
  });

  it("hashes a long EndToEndId and remittance where it runs, and hands back only their first characters", () => {
    const mt940 = (line86: string) =>
      new TextEncoder().encode(`:20:X\n:25:NL91ABNA0417164300\n:60F:C070903EUR0,00\n:61:0709070904C50,05NTRFNONREF\n:86:${line86}\n:62F:C070903EUR0,00\n-\n`);
    for (const s of [parseStatement(mt940(`/EREF/a${"/".repeat(100_000)}b`)), parseStatement(mt940(`x${"y ".repeat(60_000)}`))]) {
      const t0 = s.transactions[0];
      expect(Math.max(t0.endToEndId.length, t0.unstructured.length)).toBeGreaterThan(MAX_REMITTANCE);
      const ids = statementIdentities(s);
      const bounded = boundForImport(structuredClone(s));
      expect(bounded.identities).toEqual(ids);
      expect(statementIdentities(bounded)).toEqual(ids);
      for (const t of bounded.transactions) {
        for (const v of [t.unstructured, t.structuredReference, t.endToEndId, t.uetr, t.accountServicerReference, t.counterpartyAccount]) {
          expect(v.length).toBeLessThanOrEqual(MAX_REMITTANCE);
        }
      }
      expect(remittance(bounded)).toEqual(remittance(s));
    }
  });
});
