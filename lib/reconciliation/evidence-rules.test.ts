import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decide, shortWithinTolerance, suggest, type Candidate, type EngineSettings, type PaymentFacts } from "@/lib/reconciliation/engine";
import { candidateFacts, paymentFacts } from "@/lib/reconciliation/engine-facts.fixture";
import { compareNames, invoiceCompact, invoiceCore, invoiceKey, invoiceTail, oneEditApart } from "@/lib/reconciliation/text";

// §12's evidence rules, confidence rules, `confident` automatic allocation and the
// tolerance decision (docs/reconciliation.md).

let seq = 0;

function ob(o: Partial<Candidate> = {}): Candidate {
  const n = ++seq;
  return candidateFacts(n, { invoiceNumber: `INV-2026-${String(n).padStart(4, "0")}`, amountMinor: 125_000n, deadline: "2026-10-01", ...o });
}

const pay = (o: Partial<PaymentFacts> = {}): PaymentFacts => paymentFacts({ amountMinor: 125_000n, ...o });

const CONFIDENT: EngineSettings = { autoAllocate: "confident", tolerance: null };
const TOLERANT: EngineSettings = { autoAllocate: "confident", tolerance: { maxMinor: 2500n, maxBasisPoints: 200, kind: "bank_fee" } };
const evidence = (s: { evidence: { signal: string; matched: boolean; detail: string }[] }, signal: string) => s.evidence.find((e) => e.signal === signal)!;

describe("invoice number forms", () => {
  it("keys: separators, case and leading zeros; the short form; the tail", () => {
    expect(invoiceKey("INV-2026-0202")).toBe("INV2026202");
    expect(invoiceKey("inv 2026/202")).toBe("INV2026202");
    expect(invoiceKey("f 000273")).toBe("F273");
    expect(invoiceKey("0-0-05")).toBe("005");
    expect(invoiceKey("A00")).toBe("A0");
    expect(invoiceCompact("inv-2026/0202")).toBe("INV20260202");
    expect(invoiceCore("F2026/0708")).toBe("F708");
    expect(invoiceCore("INV-12")).toBe("");
    expect(invoiceTail("INV-2026-0202")).toBe("202");
    expect(invoiceTail("10040123")).toBe("");
  });
  it("one edit: a substitution or a transposition, never equal strings or other lengths", () => {
    expect(oneEditApart("INV2026203", "INV2026202")).toBe(true);
    expect(oneEditApart("INV2026220", "INV2026202")).toBe(true);
    expect(oneEditApart("INV2026202", "INV2026202")).toBe(false);
    expect(oneEditApart("INV202620", "INV2026202")).toBe(false);
    expect(oneEditApart("INV2027203", "INV2026202")).toBe(false);
    expect(oneEditApart("A1B2", "A1B3")).toBe(false); // too short to tell
  });
  it("invoiceKey: letters and digits only; a separator between a letter and anything changes nothing", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), fc.constantFrom("-", "/", " ", "."), (s, sep) => {
        const k = invoiceKey(s);
        expect(/^[A-Z0-9]*$/.test(k)).toBe(true);
        expect(invoiceKey(`INV${sep}${s}`)).toBe(invoiceKey(`INV${s}`));
      }),
    );
  });

  it("other separators, no leading zeros: high, and allocated automatically under `confident`", () => {
    const c = ob({ invoiceNumber: "INV-2026-0202" });
    const p = pay({ remittance: "Rechnung inv 2026/202 danke" });
    const d = decide(p, [c, ob()], CONFIDENT);
    expect(d.suggestions[0].confidence).toBe("high");
    expect(evidence(d.suggestions[0], "invoice_number").detail).toContain('written "INV 2026/202"');
    expect(d.auto?.rule).toBe("confident");
    expect(d.auto?.suggestion.allocations[0].obligation_id).toBe(c.id);
    expect(decide(p, [c], { autoAllocate: "reference_only", tolerance: null }).auto).toBeNull();
  });
  it("the short form without the year (`F-0708`) is evidence, never an automatic allocation", () => {
    const c = ob({ invoiceNumber: "F2026/0708" });
    const d = decide(pay({ remittance: "Facture F-0708" }), [c], CONFIDENT);
    expect(d.suggestions[0].confidence).toBe("high");
    expect(evidence(d.suggestions[0], "invoice_number").detail).toContain("short form");
    expect(d.auto).toBeNull();
  });
  it("one mistyped or swapped character counts only when amount and payer agree", () => {
    const c = ob({ invoiceNumber: "INV-2026-0202" });
    const agree = suggest(pay({ remittance: "INV-2026-0220" }), [c]);
    expect(agree[0].confidence).toBe("high");
    expect(evidence(agree[0], "invoice_number").detail).toContain("one character off");
    const otherPayer = suggest(pay({ remittance: "INV-2026-0220", payerName: "Someone Else" }), [c]);
    expect(evidence(otherPayer[0], "invoice_number").matched).toBe(false);
    const otherAmount = suggest(pay({ remittance: "INV-2026-0220", amountMinor: 99_000n }), [c]);
    expect(otherAmount.length === 0 || !evidence(otherAmount[0], "invoice_number").matched).toBe(true);
    expect(decide(pay({ remittance: "INV-2026-0220" }), [c], CONFIDENT).auto).toBeNull();
  });
  it("whole tokens only: INV-12 is not INV-123, XINV-12 or INV-12-A", () => {
    const c = ob({ invoiceNumber: "INV-12", amountMinor: 1000n });
    for (const text of ["INV-123", "XINV-12", "INV-12-A", "INV-12/2026"]) {
      const s = suggest(pay({ remittance: text, amountMinor: 5000n, payerName: "Other" }), [c]);
      expect(s, text).toEqual([]);
    }
  });
});

describe("payer names across transliterations", () => {
  it.each([
    ["MUELLER GMBH", "Müller GmbH"],
    ["NOERRE APS", "Nørre ApS"],
    ["OESTERGAARD", "Østergaard"],
    ["OBRIEN AND SONS LIMITED", "O'Brien & Sons Ltd"],
    ["ÇELIK YAPI", "Çelik Yapı"],
    ["STRASSE BAU", "Straße Bau"],
  ])("%s is %s", (a, b) => {
    expect(compareNames(a, b)).toBe("same");
  });
  it("different names stay different", () => {
    expect(compareNames("MILLER GMBH", "Müller GmbH")).toBe("different");
  });
});

describe("confidence", () => {
  it("candidates the evidence cannot tell apart are never above low", () => {
    const a = ob({ invoiceNumber: "", amountMinor: 50_000n });
    const b = ob({ invoiceNumber: "", amountMinor: 50_000n });
    const s = suggest(pay({ amountMinor: 50_000n }), [a, b]);
    expect(s.length).toBeGreaterThan(0);
    expect(s.every((x) => x.confidence === "low")).toBe(true);
  });
  it("a named invoice covering a small part of the payment is not high", () => {
    const c = ob({ invoiceNumber: "INV-2026-0042", amountMinor: 5_000n });
    const s = suggest(pay({ amountMinor: 100_000n, remittance: "INV-2026-0042" }), [c]);
    expect(s[0].confidence).toBe("medium");
  });
  it("an alias taught by an accepted suggestion is payer evidence", () => {
    const c = ob({ invoiceNumber: "", amountMinor: 77_700n, debtorName: "O'Brien & Sons Ltd" });
    const before = suggest(pay({ amountMinor: 77_700n, payerName: "OB HOLDINGS" }), [c]);
    expect(before[0].confidence).toBe("low");
    const after = suggest(pay({ amountMinor: 77_700n, payerName: "OB HOLDINGS", aliases: new Set(["obrien and sons"]) }), [c]);
    expect(after[0].confidence).toBe("medium");
    expect(evidence(after[0], "payer").detail).toContain("paid by this name before");
  });
  it("a rejected allocation set is not suggested again for that payment", () => {
    const c = ob({ invoiceNumber: "", amountMinor: 77_700n });
    const first = suggest(pay({ amountMinor: 77_700n }), [c]);
    const key = first[0].id.slice(0, first[0].id.indexOf("v"));
    expect(suggest(pay({ amountMinor: 77_700n, rejected: new Set([key]) }), [c])).toEqual([]);
  });
});

describe("remittance cut off at 140 characters", () => {
  it("prefers the exact-sum set containing every named obligation", () => {
    const cs = Array.from({ length: 19 }, (_, i) => ob({ amountMinor: 10_000n + BigInt(i) * 1_111n, deadline: `2026-10-${String(i + 1).padStart(2, "0")}` }));
    const paid = cs.slice(0, 11);
    const total = paid.reduce((s, c) => s + c.amountMinor, 0n);
    const remittance = `Rechnungen ${paid.map((c) => c.invoiceNumber).join(", ")}`.slice(0, 140);
    const named = paid.filter((c) => remittance.includes(`${c.invoiceNumber},`) || remittance.endsWith(c.invoiceNumber));
    expect(named.length).toBeLessThan(paid.length);
    const s = suggest(pay({ amountMinor: total, remittance }), cs);
    expect(s[0].confidence).toBe("high");
    const ids = s[0].allocations.map((a) => a.obligation_id);
    for (const c of named) expect(ids).toContain(c.id);
    expect(s[0].allocations.reduce((t, a) => t + BigInt(a.amount_minor), 0n)).toBe(total);
  });
});

describe("tolerance", () => {
  const t = { maxMinor: 2500n, maxBasisPoints: 200, kind: "bank_fee" as const };
  it("short by at most both bounds", () => {
    expect(shortWithinTolerance(123_800n, 125_000n, t)).toEqual({ shortMinor: 1_200n, kind: "bank_fee" });
    expect(shortWithinTolerance(122_000n, 125_000n, t)).toBeNull(); // 30.00 > 25.00
    expect(shortWithinTolerance(9_850n, 10_000n, t)).toEqual({ shortMinor: 150n, kind: "bank_fee" }); // 1.5 %
    expect(shortWithinTolerance(9_790n, 10_000n, t)).toBeNull(); // 2.1 %
    expect(shortWithinTolerance(125_000n, 125_000n, t)).toBeNull();
    expect(shortWithinTolerance(126_000n, 125_000n, t)).toBeNull();
    expect(shortWithinTolerance(123_800n, 125_000n, null)).toBeNull();
  });
  it("never more than either bound (property)", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 12n }), fc.bigInt({ min: 1n, max: 10n ** 12n }), (paid, owed) => {
        const r = shortWithinTolerance(paid, owed, t);
        if (r) {
          expect(r.shortMinor).toBe(owed - paid);
          expect(r.shortMinor <= t.maxMinor).toBe(true);
          expect(r.shortMinor * 10_000n <= 200n * owed).toBe(true);
        }
      }),
    );
  });
  it("a named invoice paid short within the tolerance: the decision names the shortfall; without a tolerance, no decision", () => {
    const c = ob({ invoiceNumber: "INV-2026-0500" });
    const p = pay({ amountMinor: 123_800n, remittance: "INV-2026-0500" });
    const d = decide(p, [c], TOLERANT);
    expect(d.auto).toMatchObject({ rule: "confident", shortfall: { shortMinor: 1_200n, kind: "bank_fee" } });
    expect(evidence(d.suggestions[0], "amount").detail).toContain("within the tolerance for a bank fee");
    expect(decide(p, [c], CONFIDENT).auto).toBeNull();
  });
  it("an exact RF payment short within the tolerance carries the shortfall", () => {
    const c = ob();
    const d = decide(pay({ amountMinor: 124_000n, remittance: c.paymentReference }), [c], TOLERANT);
    expect(d.auto).toMatchObject({ rule: "payment_reference", shortfall: { shortMinor: 1_000n } });
  });
});

describe("confident automatic allocation", () => {
  it("needs the amount due or outstanding and no other named open obligation", () => {
    const a = ob({ invoiceNumber: "INV-2026-0601" });
    const b = ob({ invoiceNumber: "INV-2026-0602", amountMinor: 99_000n });
    expect(decide(pay({ remittance: "INV-2026-0601" }), [a, b], CONFIDENT).auto?.suggestion.allocations[0].obligation_id).toBe(a.id);
    expect(decide(pay({ remittance: "INV-2026-0601 INV-2026-0602" }), [a, b], CONFIDENT).auto).toBeNull();
    expect(decide(pay({ remittance: "INV-2026-0601", amountMinor: 60_000n }), [a, b], CONFIDENT).auto).toBeNull();
    const due = ob({ invoiceNumber: "INV-2026-0603", amountMinor: 300_000n, dueNowMinor: 100_000n });
    expect(decide(pay({ remittance: "INV-2026-0603", amountMinor: 100_000n }), [due], CONFIDENT).auto?.rule).toBe("confident");
  });
  it("also for another company paying (the payer is not part of the rule)", () => {
    const a = ob({ invoiceNumber: "INV-2026-0700" });
    expect(decide(pay({ remittance: "INV-2026-0700", payerName: "Parent Holding SE" }), [a], CONFIDENT).auto?.rule).toBe("confident");
  });
  it("never for the wrong currency or direction", () => {
    const a = ob({ invoiceNumber: "INV-2026-0800", currency: "USD" });
    expect(decide(pay({ remittance: "INV-2026-0800" }), [a], CONFIDENT).auto).toBeNull();
    const b = ob({ invoiceNumber: "INV-2026-0801", organizationRole: "debtor" });
    expect(decide(pay({ remittance: "INV-2026-0801" }), [b], CONFIDENT).auto).toBeNull();
  });
});

describe("an RF reference across MT940 subfield joins", () => {
  it("`?20SVWZ+Rechnung` then `?21RF.. .... ....` (joined without a space) is found and exact", async () => {
    const { parseMt940 } = await import("@/lib/bank-statements/parse-mt940");
    const { formatRf } = await import("@/lib/payment-references/rf");
    const c = ob();
    const spaced = formatRf(c.paymentReference);
    const mt940 = [
      ":20:STARTUMS",
      ":25:37040044/0532013000",
      ":28C:00001/001",
      ":60F:C261101EUR1000,00",
      ":61:2611021102CR1250,00NTRFNONREF",
      `:86:166?00SEPA-GUTSCHRIFT?109310?20SVWZ+Rechnung?21${spaced}?22Danke?30COBADEFFXXX?31DE89370400440532013000?32NORTHWIND TRADERS`,
      ":62F:C261102EUR2250,00",
      "-",
    ].join("\r\n");
    const st = parseMt940(new TextEncoder().encode(mt940));
    const remittance = [st.transactions[0].structuredReference, st.transactions[0].unstructured].filter((x) => x).join(" ");
    expect(remittance).toContain(`Rechnung${spaced.slice(0, 4)}`); // the join puts it inside a word
    const d = decide(pay({ remittance }), [c, ob()], CONFIDENT);
    expect(d.suggestions[0].confidence).toBe("exact");
    expect(d.auto?.rule).toBe("payment_reference");
  });
});
