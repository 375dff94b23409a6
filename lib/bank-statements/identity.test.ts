import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { accountNamespace, statementIdentities, transactionIdentity } from "./identity";
import { parseStatement } from "./parse-statement";
import type { ParsedStatement } from "./types";

const FIXTURES = path.resolve(import.meta.dirname, "../../test/fixtures/bank");
const utf8 = (s: string) => new TextEncoder().encode(s);
const all = (d: string): string[] => readdirSync(d).flatMap((f) => (statSync(path.join(d, f)).isDirectory() ? all(path.join(d, f)) : [path.join(d, f)]));
const parsable = all(FIXTURES)
  .filter((f) => /\.(xml|sta)$/.test(f))
  .flatMap((f) => {
    try {
      return [[path.relative(FIXTURES, f), parseStatement(new Uint8Array(readFileSync(f)))] as const];
    } catch {
      return []; // the malformed ones, see the parser tests
    }
  });
// (namespace, id) pairs: what the import stores as external_reference.
const keys = (s: ParsedStatement) => s.transactions.map((t) => `${accountNamespace(s, t)} ${transactionIdentity(t, s)}`);

describe("transactionIdentity", () => {
  it("is the same when the same file is parsed again, and unique within every sample file", () => {
    expect(parsable.length).toBeGreaterThan(35);
    for (const [name, s] of parsable) {
      const again = parseStatement(new Uint8Array(readFileSync(path.join(FIXTURES, name))));
      expect(keys(again), name).toEqual(keys(s));
      expect(new Set(keys(s)).size, name).toBe(s.transactions.length);
      for (const id of statementIdentities(s)) expect(id.length).toBeLessThanOrEqual(200);
    }
  });

  it("uses AcctSvcrRef, else UETR, else a qualified EndToEndId, else a hash", () => {
    const get = (name: string) => parsable.find(([n]) => n === name)?.[1] as ParsedStatement;
    const v3 = get("camt/camt053.v3.xml");
    expect(transactionIdentity(v3.transactions[0], v3)).toBe("XXXXXXXXXXXXXXXXXXXXXXEUR");
    const uetr = get("camt/camt054.v8-with-UETR.xml");
    expect(transactionIdentity(uetr.transactions[0], uetr)).toBe("255ae394-9965-4438-ac86-f406feada396");
    const multi = get("camt/camt053.v2.multi.statement.xml");
    expect(statementIdentities(multi)).toEqual(["000000001", "000000002"]);
    const minimal = get("camt/camt053.v2.minimal.xml");
    expect(transactionIdentity(minimal.transactions[0], minimal)).toMatch(/^[0-9a-f]{64}$/);
    // A batch whose members share the entry's AcctSvcrRef: the members are numbered.
    const batch = get("camt/camt054.v8.xml");
    expect(statementIdentities(batch)).toEqual(["ACSR160617103200001", "ACSR160617103200001#1", "ACSR160617103200001#2"]);
  });

  it("namespaces by the account, per transaction in a multi-account file", () => {
    const get = (name: string) => parsable.find(([n]) => n === name)?.[1] as ParsedStatement;
    expect(accountNamespace(get("camt/camt053.v2.minimal.xml"))).toBe("bank:NL26VAYB8060476890");
    expect(accountNamespace(get("camt/camt053.v3.xml"))).toBe("bank:NL26VAYB8060476890");
    const multi = get("mt940/betterplace/sepa_snippet.sta");
    expect(accountNamespace(multi, multi.transactions[0])).toBe("bank:50880050/0194787400888");
    expect(accountNamespace(multi, multi.transactions[4])).toBe("bank:50880050/0194791600888");
  });

  describe("overlapping statements", () => {
    // Days 1..3 then days 2..5 of the same account: two identical coffee purchases on day 2,
    // and a third one on day 4 that is a new transaction.
    const line = (d: string, amt: string, name: string, text: string) => `${d};${amt};EUR;${name};${text}`;
    const header = "Buchungstag;Betrag;Währung;Name;Verwendungszweck";
    const a = [
      header,
      line("01.03.2024", "100,00", "ACME", "INV-1"),
      line("02.03.2024", "-3,50", "Café", "Kaffee"),
      line("02.03.2024", "-3,50", "Café", "Kaffee"),
      line("03.03.2024", "50,00", "Beta", "INV-2"),
    ];
    const b = [
      header,
      line("02.03.2024", "-3,50", "Café", "Kaffee"),
      line("02.03.2024", "-3,50", "Café", "Kaffee"),
      line("03.03.2024", "50,00", "Beta", "INV-2"),
      line("04.03.2024", "-3,50", "Café", "Kaffee"),
      line("05.03.2024", "7,00", "Gamma", "INV-3"),
    ];

    it("CSV without bank references: the overlap has the same ids, new days new ids", () => {
      const sa = parseStatement(utf8(a.join("\n")));
      const sb = parseStatement(utf8(b.join("\n")));
      const ia = statementIdentities(sa);
      const ib = statementIdentities(sb);
      expect(new Set(ia).size).toBe(4); // the two identical coffees are two transactions
      expect(ib.slice(0, 3)).toEqual(ia.slice(1, 4));
      expect(ia).not.toContain(ib[3]);
      expect(ia).not.toContain(ib[4]);
      // Re-exported in another order (newest first, as many banks do): same ids.
      const reversed = parseStatement(utf8([header, ...b.slice(1).reverse()].join("\n")));
      expect(new Set(statementIdentities(reversed))).toEqual(new Set(ib));
    });

    it("MT940 with bank references and camt with EndToEndIds", () => {
      const mt = (days: Array<[string, string]>) =>
        `:20:S\n:25:DE89370400440532013000\n:60F:C240301EUR0,\n${days.map(([d, ref]) => `:61:${d}${d.slice(2)}D3,50NTRFNONREF//${ref}\n:86:166?20SVWZ+Kaffee\n`).join("")}:62F:C240305EUR0,\n`;
      const ma = parseStatement(
        utf8(
          mt([
            ["240301", "R1"],
            ["240302", "R2"],
            ["240302", "R3"],
          ]),
        ),
      );
      const mb = parseStatement(
        utf8(
          mt([
            ["240302", "R2"],
            ["240302", "R3"],
            ["240304", "R4"],
          ]),
        ),
      );
      expect(statementIdentities(mb).slice(0, 2)).toEqual(statementIdentities(ma).slice(1));
      const camt = (entries: Array<[string, string]>) =>
        utf8(
          `<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.04"><BkToCstmrStmt><Stmt><Acct><Id><IBAN>DE89370400440532013000</IBAN></Id></Acct>${entries
            .map(
              ([d, e2e]) =>
                `<Ntry><Amt Ccy="EUR">10.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>${d}</Dt></BookgDt><NtryDtls><TxDtls><Refs><EndToEndId>${e2e}</EndToEndId></Refs></TxDtls></NtryDtls></Ntry>`,
            )
            .join("")}</Stmt></BkToCstmrStmt></Document>`,
        );
      // Without AcctSvcrRef or UETR the EndToEndId is the identity, as written; NOTPROVIDED is no identity.
      const ca = parseStatement(
        camt([
          ["2024-01-01", "E2E-A"],
          ["2024-02-01", "E2E-B"],
        ]),
      );
      const cb = parseStatement(
        camt([
          ["2024-02-01", "E2E-B"],
          ["2024-03-01", "NOTPROVIDED"],
        ]),
      );
      expect(statementIdentities(ca)).toEqual(["E2E-A", "E2E-B"]);
      expect(statementIdentities(cb)[0]).toBe("E2E-B");
      expect(statementIdentities(cb)[1]).toMatch(/^[0-9a-f]{64}$/);
    });
  });
});
