import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { formatRf, paymentReferenceFor } from "@/lib/payment-references/rf";
import { camt053, type Entry } from "./statements";

// The labeled reconciliation set: generated obligations and camt.053 statements whose
// right answers are known, built from a seed (the same seed gives the same set), plus the
// third-party sample statements under test/fixtures/bank/ (no true match in a fresh
// organization: negatives). Used by scripts/bench/reconciliation-quality.ts (the full set)
// and test/reconciliation-quality.test.ts (a slice), both through the real server:
// obligations registered with POST /obligations, baskets made through the account link as the
// payer makes them (rf_basket), statements imported with POST /bank-statements, suggestions
// read with GET /payments/{id}/suggestions.

export const CATEGORIES = {
  rf_structured: "RF reference in the structured remittance, amount paid in full",
  rf_unstructured: "RF reference in free text, with spaces and/or lower case",
  rf_overpayment: "RF reference, more than the outstanding amount paid",
  rf_partial: "RF reference, part of the amount paid",
  rf_basket:
    "a basket's RF reference (several invoices the payer picked on the account page, one transfer): allocated across the basket in item order, a shorter payment fills the items in order, a larger one leaves the rest",
  invoice_text: "invoice number in free text, payer name as the bank writes it",
  invoice_wrong_amount: "invoice number in free text, a different amount (fees, rounding, short payment)",
  invoice_partial: "invoice number in free text, part of the amount paid",
  multi_named: "one transfer for several invoices named in the remittance (numbers or RF references)",
  subset_sum: "one transfer for several open obligations of one payer, no reference (sum of a subset)",
  payer_amount: "no reference: amount and payer name (legal forms, accents, case)",
  near_miss_positive: "INV-612 named while INV-612 and INV-6123 are both open",
  near_miss_negative: "INV-512 named while only INV-5123 is open (or XINV-5123, INV-5123-A)",
  other_tenant: "another organization's RF reference or invoice number (and its amount)",
  outgoing_payable: "outgoing payment of a supplier invoice (organization is the debtor)",
  wrong_direction: "a receivable's reference on an outgoing payment, a payable's on an incoming one",
  noise: "unrelated bookings: card payments, salaries, fees, rent",
  invoice_format: "invoice number written another way: separators, case, no leading zeros (INV-2026-100 for INV-2026-0100)",
  invoice_short_form: "invoice number without its year or prefix (F-0708 or 0708 for F2026/0708), amount and payer agree",
  invoice_typo: "invoice number with one mistyped or swapped digit, amount and payer agree",
  remittance_cut: "remittance cut off at 140 characters listing part of the invoices paid (customer with up to 19 open)",
  payer_transliteration: "no reference: amount and a transliterated payer name (MUELLER / Müller, OBRIEN AND SONS / O'Brien & Sons)",
  other_payer: "another company pays an invoice by its number, amount in full",
  short_payment: "invoice named, paid short by a bank fee within 25.00 / 2 % (the tolerance)",
  ambiguous_amount: "no reference: two open obligations of the payer with the same amount (a person decides)",
  fixture: "third-party sample statements (test/fixtures/bank), no true match",
} as const;
export type Category = keyof typeof CATEGORIES;

// Cases per category at scale 1. The mix is weighted like a business's receivables
// statement: most transfers pay one invoice in full and quote its number or payment
// reference; every hard case of the issues has cases of its own (docs/reconciliation.md
// shows the figures per kind, so the weighting hides nothing).
const COUNTS: Record<Exclude<Category, "fixture">, number> = {
  rf_structured: 60,
  rf_unstructured: 30,
  rf_overpayment: 8,
  rf_partial: 10,
  rf_basket: 12,
  invoice_text: 240,
  invoice_wrong_amount: 10,
  invoice_partial: 10,
  multi_named: 10,
  subset_sum: 10,
  payer_amount: 12,
  near_miss_positive: 10,
  near_miss_negative: 15,
  other_tenant: 20,
  outgoing_payable: 40,
  wrong_direction: 10,
  noise: 40,
  invoice_format: 60,
  invoice_short_form: 10,
  invoice_typo: 10,
  remittance_cut: 10,
  payer_transliteration: 10,
  other_payer: 12,
  short_payment: 10,
  ambiguous_amount: 10,
};

export type Registered = { id: string; reference: string; paymentReference: string };
export type ObligationSpec = { key: string; tenant: "main" | "other"; body: Record<string, unknown> };
// A basket the payer makes on the account page (POST /recipient/accounts/{account}/baskets)
// before the statement arrives: obligations of one counterparty (`email`) with an amount each.
type BasketSpec = { key: string; email: string; items: { key: string; amountMinor: bigint }[] };
type Ctx = { ob: (key: string) => Registered; basket: (key: string) => string };
export type LabeledCase = {
  n: number;
  category: Category;
  note: string; // what the case is, for the list of misses
  expected: { key: string; amountMinor: bigint }[]; // the true allocation; [] = no true match
  auto: boolean; // an automatic allocation is the right outcome under `reference_only` (exact, single obligation)
  autoConfident: boolean; // the same under `confident` (also a whole invoice number with the amount due)
  tolerance: boolean; // short within the tolerance: allocated and the shortfall credited (`confident`)
  entry: (ctx: Ctx) => Entry;
};
export type LabeledPlan = { seed: number; obligations: ObligationSpec[]; baskets: BasketSpec[]; cases: LabeledCase[] };

// mulberry32: a small deterministic PRNG.
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)];
  return { next, int, pick };
}

const decimal = (minor: bigint) => `${minor / 100n}.${String(minor % 100n).padStart(2, "0")}`;
const day = (base: string, offset: number) => {
  const d = new Date(`${base}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + offset);
  return d.toISOString().slice(0, 10);
};

// Party names: what the organization registered, and how a bank writes it.
const FIRST = [
  "Northwind",
  "Brightwater",
  "Keller",
  "Lindqvist",
  "Harbour",
  "Oakridge",
  "Silverline",
  "Meridian",
  "Blue Fjord",
  "Redwood",
  "Alpine",
  "Greenfield",
  "Stonebridge",
  "Castellan",
  "Riverside",
  "Sunmill",
  "Ironbark",
  "Westmoor",
  "Eastgate",
  "Hollow Pine",
  "Kestrel",
  "Larkspur",
  "Marlow",
  "Nightingale",
  "Orchard",
  "Pemberton",
  "Quayside",
  "Rosewood",
  "Saffron",
  "Thistle",
  "Umber",
  "Vantage",
  "Willowbank",
  "Yarrow",
  "Zephyr",
];
const SECOND = [
  "Traders",
  "Logistics",
  "Bakery",
  "Consulting",
  "Engineering",
  "Textiles",
  "Software",
  "Foods",
  "Media",
  "Architects",
  "Dental",
  "Motors",
  "Print",
  "Studios",
  "Farms",
  "Hotels",
  "Analytics",
  "Supplies",
  "Optics",
  "Ceramics",
];
const FORMS = ["Ltd", "Ltd.", "Limited", "GmbH", "GmbH & Co. KG", "S.A.", "SARL", "B.V.", "Inc.", "LLC", "AG", "S.r.l.", "Oy", "AB", "plc", ""];
const ACCENTED = [
  "Café Ñandú",
  "Müller & Söhne",
  "Société Lumière",
  "Brasserie Éclair",
  "Żabka Łódź",
  "Crème Brûlée",
  "Çelik İnşaat",
  "Señora Núñez",
  "Ørsted Fiskeri",
  "Smörgås Malmö",
  "Ångström Optik",
  "Garçon Pâtisserie",
];
// First words whose first four letters differ from every other name here (subset-sum payers).
const OWN_HEADS = [
  "Abernathy",
  "Bexley",
  "Cranford",
  "Dunmore",
  "Elmsworth",
  "Farrow",
  "Gallow",
  "Hazelton",
  "Ingram",
  "Jessop",
  "Kinross",
  "Lovell",
  "Mortlake",
  "Neville",
  "Ockham",
  "Penhallow",
  "Quilter",
  "Radley",
  "Sorrel",
  "Tamworth",
  "Uxbridge",
  "Verity",
  "Wexford",
  "Yeovil",
  "Zennor",
  "Ashby",
  "Bramley",
  "Cobham",
  "Dorrington",
  "Ellery",
];

// How a bank renders a registered name: upper case, accents folded, legal form spelled
// differently or dropped, punctuation gone, or cut at a fixed width.
function bankName(name: string, r: ReturnType<typeof prng>): string {
  const folded = name.normalize("NFKD").replace(/\p{M}/gu, "").replace(/ß/g, "ss").replace(/ø/gi, "O").replace(/ł/g, "l").replace(/Ł/g, "L");
  const swap: Record<string, string> = { "Ltd.": "LIMITED", Ltd: "LTD", Limited: "LTD", "S.A.": "SA", "B.V.": "BV", "Inc.": "INC", GmbH: "GMBH" };
  switch (r.int(0, 4)) {
    case 0:
      return folded.toUpperCase();
    case 1:
      return folded.replace(/\b(Ltd\.?|Limited|S\.A\.|B\.V\.|Inc\.|GmbH)/g, (m) => swap[m] ?? m).toUpperCase();
    case 2:
      return folded.replace(/[.,&]/g, " ").replace(/\s+/g, " ").trim();
    case 3:
      return folded.toUpperCase().slice(0, Math.max(12, Math.min(folded.length, 22)));
    default:
      return name;
  }
}

export function labeledPlan(seed = 20261124, scale = 1): LabeledPlan {
  const r = prng(seed);
  const count = (c: Exclude<Category, "fixture">) => Math.max(2, Math.round(COUNTS[c] * scale));
  const obligations: ObligationSpec[] = [];
  const baskets: BasketSpec[] = [];
  const cases: LabeledCase[] = [];
  const usedNames = new Set<string>();
  const usedAmounts = new Set<bigint>();
  let seq = 0;
  const customer = (accented = false): string => {
    for (let tries = 0; ; tries++) {
      const base = accented && r.next() < 0.7 ? r.pick(ACCENTED) : `${r.pick(FIRST)} ${r.pick(SECOND)}`;
      const name = `${base} ${r.pick(FORMS)}`.trim();
      if (!usedNames.has(name)) {
        usedNames.add(name);
        return name;
      }
      if (tries > 50) return `${name} ${++seq}`;
    }
  };
  // A payer whose first four letters (the database's counterparty key) no other payer of
  // the set shares, so its open obligations are all among the subset-sum candidates.
  let own = 0;
  const ownCustomer = (): string => {
    const head = OWN_HEADS[own++];
    const name = head ? `${head} ${r.pick(SECOND)} ${r.pick(FORMS)}`.trim() : customer();
    usedNames.add(name);
    return name;
  };
  const amount = (): bigint => {
    for (;;) {
      const a = BigInt(r.int(1_000, 900_000));
      if (!usedAmounts.has(a)) {
        usedAmounts.add(a);
        return a;
      }
    }
  };
  let invoiceSeq = 100;
  const invoiceNumber = () => {
    const n = invoiceSeq++;
    switch (n % 4) {
      case 0:
        return `INV-2026-${String(n).padStart(4, "0")}`;
      case 1:
        return `RE-${48_000 + n}`;
      case 2:
        return `F2026/${String(n).padStart(4, "0")}`;
      default:
        return `${10_040_000 + n}`;
    }
  };
  const BOOKED = "2026-11-02";
  const ob = (
    tenant: "main" | "other",
    o: { name: string; amount: bigint; invoice?: string; role?: "creditor" | "debtor"; deadlineOffset?: number; email?: string },
  ): string => {
    const key = `o${obligations.length}`;
    const role = o.role ?? "creditor";
    const party = { name: o.name, email: o.email ?? `ap${obligations.length}@example.test` };
    obligations.push({
      key,
      tenant,
      body: {
        obligation_type: "invoice",
        ...(role === "debtor" ? { organization_role: "debtor", creditor: party } : { debtor: party }),
        external_reference: { namespace: "labeled", id: `${seed}-${key}` },
        amount_minor: o.amount.toString(),
        currency: "EUR",
        deadline: day(BOOKED, o.deadlineOffset ?? r.int(-20, 40)),
        business_context: { invoice_number: o.invoice ?? invoiceNumber(), description: "Labeled reconciliation set" },
      },
    });
    return key;
  };
  const invoiceOf = (key: string) => (obligations.find((o) => o.key === key)!.body.business_context as { invoice_number: string }).invoice_number;
  const amountOf = (key: string) => BigInt(obligations.find((o) => o.key === key)!.body.amount_minor as string);
  const add = (
    category: Category,
    note: string,
    expected: LabeledCase["expected"],
    auto: boolean,
    entry: LabeledCase["entry"],
    more: { autoConfident?: boolean; tolerance?: boolean } = {},
  ) => cases.push({ n: cases.length, category, note, expected, auto, autoConfident: more.autoConfident ?? auto, tolerance: more.tolerance ?? false, entry });
  const date = () => day(BOOKED, r.int(0, 18));
  const spaced = (rf: string) => {
    const v = r.int(0, 2);
    return v === 0 ? formatRf(rf) : v === 1 ? formatRf(rf).toLowerCase() : rf.toLowerCase();
  };
  const filler = () => r.pick(["", "Thank you", "Zahlung", "Payment", "SEPA transfer", "Paiement facture", "Betaling", "Ref. customer 77"]);

  for (let i = 0; i < count("rf_structured"); i++) {
    const name = customer();
    const a = amount();
    const k = ob("main", { name, amount: a });
    add("rf_structured", `RF of ${k}`, [{ key: k, amountMinor: a }], true, (c) => ({
      amount: decimal(a),
      name: bankName(name, r),
      rf: c.ob(k).paymentReference,
      ustrd: filler() || undefined,
      date: date(),
    }));
  }
  for (let i = 0; i < count("rf_unstructured"); i++) {
    const name = customer();
    const a = amount();
    const k = ob("main", { name, amount: a });
    const form = r.int(0, 2);
    add("rf_unstructured", `spaced/lower-case RF of ${k}`, [{ key: k, amountMinor: a }], true, (c) => {
      const rf = spaced(c.ob(k).paymentReference);
      return {
        amount: decimal(a),
        name: bankName(name, r),
        ustrd: form === 0 ? rf : form === 1 ? `Payment ${rf} thanks` : `${rf}/${filler() || "EUR"}`,
        date: date(),
      };
    });
  }
  for (let i = 0; i < count("rf_overpayment"); i++) {
    const name = customer();
    const a = amount();
    const k = ob("main", { name, amount: a });
    const paid = a + BigInt(r.int(100, 50_000));
    add("rf_overpayment", `RF of ${k}, ${decimal(paid)} for ${decimal(a)}`, [{ key: k, amountMinor: a }], true, (c) => ({
      amount: decimal(paid),
      name: bankName(name, r),
      rf: c.ob(k).paymentReference,
      date: date(),
    }));
  }
  for (let i = 0; i < count("rf_partial"); i++) {
    const name = customer();
    const a = amount() + 10_000n;
    const k = ob("main", { name, amount: a });
    const paid = a / BigInt(r.int(2, 4));
    add("rf_partial", `RF of ${k}, ${decimal(paid)} of ${decimal(a)}`, [{ key: k, amountMinor: paid }], true, (c) => ({
      amount: decimal(paid),
      name: bankName(name, r),
      ustrd: `Instalment ${spaced(c.ob(k).paymentReference)}`,
      date: date(),
    }));
  }
  const invoiceText = (inv: string) =>
    r.pick([`Invoice ${inv}`, `Rechnung Nr. ${inv} vom 15.10.2026`, `Facture ${inv} merci`, `${inv}`, `INVOICE NO ${inv} CUST 4471`, `Payment for #${inv}.`]);
  for (let i = 0; i < count("invoice_text"); i++) {
    const name = customer(r.next() < 0.3);
    const a = amount();
    const k = ob("main", { name, amount: a });
    add(
      "invoice_text",
      `invoice ${invoiceOf(k)} of ${k}`,
      [{ key: k, amountMinor: a }],
      false,
      () => ({
        amount: decimal(a),
        name: bankName(name, r),
        ustrd: invoiceText(invoiceOf(k)),
        date: date(),
      }),
      { autoConfident: true },
    );
  }
  for (let i = 0; i < count("invoice_wrong_amount"); i++) {
    const name = customer();
    const a = amount() + 10_000n;
    const k = ob("main", { name, amount: a });
    const paid = r.next() < 0.5 ? a - BigInt(r.int(1, 2_500)) : a + BigInt(r.int(1, 2_500));
    const capped = paid < a ? paid : a;
    // Short within QUALITY_SETTINGS' tolerance (25.00 and 2 %): allocated and credited with `confident`.
    const withinTolerance = paid < a && a - paid <= 2_500n && (a - paid) * 10_000n <= 200n * a;
    add(
      "invoice_wrong_amount",
      `invoice ${invoiceOf(k)}, ${decimal(paid)} for ${decimal(a)}`,
      [{ key: k, amountMinor: capped }],
      false,
      () => ({
        amount: decimal(paid),
        name: bankName(name, r),
        ustrd: invoiceText(invoiceOf(k)),
        date: date(),
      }),
      { tolerance: withinTolerance, autoConfident: withinTolerance },
    );
  }
  for (let i = 0; i < count("invoice_partial"); i++) {
    const name = customer();
    const a = amount() + 10_000n;
    const k = ob("main", { name, amount: a });
    const paid = a / 2n;
    add("invoice_partial", `invoice ${invoiceOf(k)}, half paid`, [{ key: k, amountMinor: paid }], false, () => ({
      amount: decimal(paid),
      name: bankName(name, r),
      ustrd: `Part payment ${invoiceOf(k)}`,
      date: date(),
    }));
  }
  for (let i = 0; i < count("multi_named"); i++) {
    const name = customer();
    const n = r.int(2, 3);
    const ks = Array.from({ length: n }, () => ob("main", { name, amount: amount() }));
    const total = ks.reduce((s, k) => s + amountOf(k), 0n);
    const byRf = i % 3 === 2;
    add(
      "multi_named",
      `${n} obligations named by ${byRf ? "RF" : "invoice number"}`,
      ks.map((k) => ({ key: k, amountMinor: amountOf(k) })),
      false,
      (c) => ({
        amount: decimal(total),
        name: bankName(name, r),
        ustrd: byRf ? ks.map((k) => spaced(c.ob(k).paymentReference)).join(" ") : `Invoices ${ks.map(invoiceOf).join(r.pick([", ", " + ", " / ", " "]))}`,
        date: date(),
      }),
    );
  }
  for (let i = 0; i < count("subset_sum"); i++) {
    // A payer (plain ASCII head, so the bank's spelling keeps the first four letters) with
    // 4-5 open obligations; the payment is the sum of 2-3 of them and of no other subset.
    const name = ownCustomer();
    for (;;) {
      const m = r.int(4, 5);
      const amounts = Array.from({ length: m }, () => BigInt(r.int(1_000, 300_000)));
      const pickN = r.int(2, 3);
      const chosen = [...Array(m).keys()].sort(() => r.next() - 0.5).slice(0, pickN);
      const total = chosen.reduce((s, j) => s + amounts[j], 0n);
      let hits = 0;
      for (let mask = 1; mask < 1 << m; mask++) {
        let s = 0n;
        for (let j = 0; j < m; j++) if (mask & (1 << j)) s += amounts[j];
        if (s === total) hits++;
      }
      if (hits !== 1 || amounts.some((x) => usedAmounts.has(x)) || usedAmounts.has(total)) continue;
      for (const x of amounts) usedAmounts.add(x);
      usedAmounts.add(total);
      const ks = amounts.map((x) => ob("main", { name, amount: x }));
      add(
        "subset_sum",
        `${pickN} of ${m} open obligations of ${name}`,
        chosen.map((j) => ({ key: ks[j], amountMinor: amounts[j] })),
        false,
        () => ({
          amount: decimal(total),
          name: r.next() < 0.5 ? name.toUpperCase() : name.replace(/[.,]/g, ""),
          ustrd: r.pick(["Sammelueberweisung", "Payment", "", "Monthly settlement", "Open items October"]) || undefined,
          date: date(),
        }),
      );
      break;
    }
  }
  for (let i = 0; i < count("payer_amount"); i++) {
    const name = customer(true);
    const a = amount();
    const k = ob("main", { name, amount: a });
    add("payer_amount", `${decimal(a)} from "${name}"`, [{ key: k, amountMinor: a }], false, () => ({
      amount: decimal(a),
      name: bankName(name, r),
      ustrd: r.pick(["Payment", "Zahlung Oktober", "", "Transfer", "Virement"]) || undefined,
      date: date(),
    }));
  }
  let short = 600;
  for (let i = 0; i < count("near_miss_positive"); i++) {
    const name = customer();
    const base = short++;
    const a = amount();
    const k = ob("main", { name, amount: a, invoice: `INV-${base}` });
    ob("main", { name: customer(), amount: amount(), invoice: `INV-${base}3` });
    add(
      "near_miss_positive",
      `INV-${base} (INV-${base}3 also open)`,
      [{ key: k, amountMinor: a }],
      false,
      () => ({
        amount: decimal(a),
        name: bankName(name, r),
        ustrd: `Invoice INV-${base}`,
        date: date(),
      }),
      { autoConfident: true },
    );
  }
  short = 500;
  for (let i = 0; i < count("near_miss_negative"); i++) {
    const name = customer();
    const base = short++;
    const k = ob("main", { name, amount: amount(), invoice: `INV-${base}3` });
    const text = r.pick([`Invoice INV-${base}`, `XINV-${base}3`, `INV-${base}3-A`, `INV-${base}3/2026`, `INV-${base}33`]);
    add("near_miss_negative", `"${text}" while ${invoiceOf(k)} is open`, [], false, () => ({
      amount: decimal(amount()),
      name: bankName(customer(), r),
      ustrd: text,
      date: date(),
    }));
  }
  for (let i = 0; i < count("other_tenant"); i++) {
    const name = customer();
    const a = amount();
    const k = ob("other", { name, amount: a, invoice: `OT-${7000 + i}` });
    const byRf = i % 2 === 0;
    add("other_tenant", `${byRf ? "RF" : "invoice number"} of the other organization's ${k}`, [], false, (c) => ({
      amount: decimal(a),
      name: bankName(name, r),
      ...(byRf ? { rf: c.ob(k).paymentReference } : { ustrd: `Invoice OT-${7000 + i}` }),
      date: date(),
    }));
  }
  for (let i = 0; i < count("outgoing_payable"); i++) {
    const name = customer();
    const a = amount();
    const inv = `${r.pick(["SUP", "RG", "BILL"])}-${90_000 + i * 7}`;
    const k = ob("main", { name, amount: a, invoice: inv, role: "debtor" });
    const withNumber = i % 4 !== 3;
    add(
      "outgoing_payable",
      `pays supplier invoice ${inv}${withNumber ? "" : " (amount and name only)"}`,
      [{ key: k, amountMinor: a }],
      false,
      () => ({
        amount: decimal(a),
        credit: false,
        name: bankName(name, r),
        ustrd: withNumber ? r.pick([`${inv}`, `Your invoice ${inv}`, `Rechnung ${inv} Kd-Nr 5512`]) : "Supplier payment",
        date: date(),
      }),
      { autoConfident: withNumber },
    );
  }
  for (let i = 0; i < count("wrong_direction"); i++) {
    const name = customer();
    const a = amount();
    if (i % 2 === 0) {
      const k = ob("main", { name, amount: a });
      add("wrong_direction", `outgoing payment with the RF of receivable ${k}`, [], false, (c) => ({
        amount: decimal(a),
        credit: false,
        name: bankName(name, r),
        rf: c.ob(k).paymentReference,
        date: date(),
      }));
    } else {
      const inv = `PAY-${30_000 + i}`;
      ob("main", { name, amount: a, invoice: inv, role: "debtor" });
      add("wrong_direction", `incoming payment naming payable ${inv}`, [], false, () => ({
        amount: decimal(a),
        name: bankName(name, r),
        ustrd: `Invoice ${inv}`,
        date: date(),
      }));
    }
  }
  const NOISE_IN = ["Salary refund", "Interest credit", "Card refund AMAZON EU", "Cash deposit", "Tax refund 2025", "Insurance claim 88-1232"];
  const NOISE_OUT = ["CARD 4711 REWE SAGT DANKE", "Rent December", "Payroll November", "Bank fees Q4", "Lease car M-AB 123", "SEPA direct debit Telekom"];
  for (let i = 0; i < count("noise"); i++) {
    const credit = i % 2 === 0;
    const text = r.pick(credit ? NOISE_IN : NOISE_OUT);
    add("noise", text, [], false, () => ({
      amount: decimal(amount()),
      credit,
      name: credit ? customer() : r.pick(["REWE", "Landlord GmbH", "Staff"]),
      ustrd: text,
      date: date(),
    }));
  }
  // Another spelling of the number: separators, case, leading zeros of the last group
  // (digit groups stay apart: `2026-100`, never `2026100`).
  const respell = (inv: string): string => {
    const groups = inv.match(/[A-Za-z]+|\d+/g) ?? [inv];
    let out = "";
    groups.forEach((g, i) => {
      let v = i === groups.length - 1 && /^\d+$/.test(g) && r.next() < 0.6 ? g.replace(/^0+(?=\d)/, "") : g;
      if (/^[A-Za-z]+$/.test(v)) v = r.next() < 0.5 ? v.toLowerCase() : v;
      if (i > 0) {
        const digitsBoth = /^\d/.test(g) && /\d$/.test(groups[i - 1]);
        out += r.pick(digitsBoth ? ["-", "/", " ", "."] : ["-", "/", " ", ""]);
      }
      out += v;
    });
    return out === inv ? out.toLowerCase() : out;
  };
  for (let i = 0; i < count("invoice_format"); i++) {
    const name = customer();
    const a = amount();
    if (invoiceSeq % 4 === 3) invoiceNumber(); // skip the digits-only form: it has no separators to change
    const inv = invoiceNumber();
    const k = ob("main", { name, amount: a, invoice: inv });
    const written = respell(inv);
    add(
      "invoice_format",
      `"${written}" for ${inv}`,
      [{ key: k, amountMinor: a }],
      false,
      () => ({
        amount: decimal(a),
        name: bankName(name, r),
        ustrd: r.pick([`Invoice ${written}`, `Rechnung ${written}`, written, `Zahlung ${written} danke`]),
        date: date(),
      }),
      { autoConfident: true },
    );
  }
  for (let i = 0; i < count("invoice_short_form"); i++) {
    const name = customer();
    const a = amount();
    const n = 700 + i;
    // Year 2025: numbers the generator's invoiceNumber() (2026) never hands out again.
    const inv = i % 2 === 0 ? `F2025/${String(n).padStart(4, "0")}` : `INV-2025-${String(n).padStart(4, "0")}`;
    const k = ob("main", { name, amount: a, invoice: inv });
    const written = i % 4 < 2 ? `${inv.startsWith("F") ? "F" : "INV"}-${String(n).padStart(4, "0")}` : String(n).padStart(4, "0");
    add("invoice_short_form", `"${written}" for ${inv}`, [{ key: k, amountMinor: a }], false, () => ({
      amount: decimal(a),
      name: bankName(name, r),
      ustrd: `Rechnung ${written}`,
      date: date(),
    }));
  }
  for (let i = 0; i < count("invoice_typo"); i++) {
    const name = customer();
    const a = amount();
    const inv = `INV-2025-${String(810 + i * 3).padStart(4, "0")}`;
    const k = ob("main", { name, amount: a, invoice: inv });
    const d = inv.slice(-3);
    const typo = i % 2 === 0 ? `${inv.slice(0, -1)}${(Number(inv.slice(-1)) + 5) % 10}` : `${inv.slice(0, -3)}${d[1]}${d[0]}${d[2]}`;
    add("invoice_typo", `"${typo}" for ${inv}`, [{ key: k, amountMinor: a }], false, () => ({
      amount: decimal(a),
      name: bankName(name, r),
      ustrd: `Invoice ${typo}`,
      date: date(),
    }));
  }
  for (let i = 0; i < count("remittance_cut"); i++) {
    const name = ownCustomer();
    const open = r.int(14, 19);
    const ks = Array.from({ length: open }, (_, j) => ob("main", { name, amount: amount(), deadlineOffset: -30 + j }));
    const paidN = r.int(10, 12);
    const paid = ks.slice(0, paidN);
    const total = paid.reduce((t, k) => t + amountOf(k), 0n);
    const text = `Rechnungen ${paid.map(invoiceOf).join(", ")}`.slice(0, 140);
    add(
      "remittance_cut",
      `${paidN} of ${open} open invoices of ${name}, remittance cut at 140 characters`,
      paid.map((k) => ({ key: k, amountMinor: amountOf(k) })),
      false,
      () => ({ amount: decimal(total), name: name.toUpperCase(), ustrd: text, date: date() }),
    );
  }
  const TRANSLIT: [string, string][] = [
    ["Müller Maschinenbau GmbH", "MUELLER MASCHINENBAU GMBH"],
    ["Nørre Fiskeri ApS", "NOERRE FISKERI APS"],
    ["Østergaard Design", "OESTERGAARD DESIGN"],
    ["O'Brien & Sons Ltd", "OBRIEN AND SONS LIMITED"],
    ["Çelik Yapı A.Ş.", "CELIK YAPI AS"],
    ["Große Straße KG", "GROSSE STRASSE KG"],
    ["Åkerlund & Rausing AB", "AAKERLUND AND RAUSING AB"],
    ["Schäfer Logistik GmbH", "SCHAEFER LOGISTIK GMBH"],
    ["Ülker Gıda A.Ş.", "UELKER GIDA AS"],
    ["Bjørnsen & Søn AS", "BJOERNSEN AND SOEN AS"],
  ];
  for (let i = 0; i < count("payer_transliteration"); i++) {
    const [registered, written] = TRANSLIT[i % TRANSLIT.length];
    const suffix = i >= TRANSLIT.length ? ` ${i}` : "";
    const a = amount();
    const k = ob("main", { name: `${registered}${suffix}`, amount: a });
    add("payer_transliteration", `${decimal(a)} from "${written}${suffix}" for ${registered}`, [{ key: k, amountMinor: a }], false, () => ({
      amount: decimal(a),
      name: `${written}${suffix}`,
      ustrd: r.pick(["Zahlung", "Payment", "Betaling", "Odeme"]),
      date: date(),
    }));
  }
  for (let i = 0; i < count("other_payer"); i++) {
    const name = customer();
    const a = amount();
    const k = ob("main", { name, amount: a });
    add(
      "other_payer",
      `invoice ${invoiceOf(k)} of ${name} paid by its parent`,
      [{ key: k, amountMinor: a }],
      false,
      () => ({
        amount: decimal(a),
        name: r.pick(["PARENT HOLDING SE", "Group Treasury GmbH", "Shared Services Centre Ltd"]),
        ustrd: invoiceText(invoiceOf(k)),
        date: date(),
      }),
      { autoConfident: true },
    );
  }
  for (let i = 0; i < count("short_payment"); i++) {
    const name = customer();
    const a = amount() + 130_000n;
    const k = ob("main", { name, amount: a });
    const fee = BigInt(r.int(100, 2_500));
    add(
      "short_payment",
      `invoice ${invoiceOf(k)}, ${decimal(fee)} short (bank fee)`,
      [{ key: k, amountMinor: a - fee }],
      false,
      () => ({ amount: decimal(a - fee), name: bankName(name, r), ustrd: invoiceText(invoiceOf(k)), date: date() }),
      { tolerance: true, autoConfident: true },
    );
  }
  for (let i = 0; i < count("ambiguous_amount"); i++) {
    const name = ownCustomer();
    const a = amount();
    ob("main", { name, amount: a, deadlineOffset: 30 });
    ob("main", { name, amount: a, deadlineOffset: 35 });
    add("ambiguous_amount", `${decimal(a)} from ${name}, who has two open obligations of that amount`, [], false, () => ({
      amount: decimal(a),
      name: name.toUpperCase(),
      ustrd: "Payment",
      date: date(),
    }));
  }
  for (let i = 0; i < count("rf_basket"); i++) {
    // 2-4 invoices of one payer in one basket; the transfer pays the total (variant 0, 1),
    // less (2: the items fill in order) or more (3: the rest stays unallocated); in variant 1
    // the payer chose to pay only part of the last invoice.
    const name = customer();
    const email = `basket${i}@example.test`;
    const ks = Array.from({ length: r.int(2, 4) }, () => ob("main", { name, amount: amount() + 1_000n, email }));
    const variant = i % 4;
    const items = ks.map((k, j) => ({ key: k, amountMinor: variant === 1 && j === ks.length - 1 ? amountOf(k) / 2n : amountOf(k) }));
    const total = items.reduce((sum, it) => sum + it.amountMinor, 0n);
    const paid = variant === 2 ? total - items[items.length - 1].amountMinor / 2n : variant === 3 ? total + BigInt(r.int(100, 20_000)) : total;
    let left = paid;
    const expected = items
      .map((it) => {
        const a = it.amountMinor < left ? it.amountMinor : left;
        left -= a;
        return { key: it.key, amountMinor: a };
      })
      .filter((e) => e.amountMinor > 0n);
    const b = `b${baskets.length}`;
    baskets.push({ key: b, email, items });
    const structured = r.next() < 0.5;
    add(
      "rf_basket",
      `basket ${b} of ${ks.length} (${["total", "part of the last", "short", "more"][variant]}), ${decimal(paid)} for ${decimal(total)}`,
      expected,
      true,
      (c) => ({
        amount: decimal(paid),
        name: bankName(name, r),
        ...(structured ? { rf: c.basket(b) } : { ustrd: `${r.pick(["Sammelzahlung", "Invoices", "Payment"])} ${spaced(c.basket(b))}` }),
        date: date(),
      }),
    );
  }
  // Shuffle the cases (deterministically), so the statements are not sorted by category.
  for (let i = cases.length - 1; i > 0; i--) {
    const j = Math.floor(r.next() * (i + 1));
    [cases[i], cases[j]] = [cases[j], cases[i]];
  }
  return { seed, obligations, baskets, cases };
}

// The statements of a plan once its obligations are registered: camt.053.001.02 files of
// at most `perFile` transactions, each transaction one labeled case, in case order.
export function labeledStatements(
  plan: LabeledPlan,
  registered: Map<string, Registered>,
  baskets: Map<string, string>, // basket key -> its payment reference
  perFile = 80,
): { xml: string; cases: LabeledCase[] }[] {
  const ctx: Ctx = {
    ob: (key) => {
      const o = registered.get(key);
      if (!o) throw new Error(`obligation ${key} was not registered`);
      return o;
    },
    basket: (key) => {
      const ref = baskets.get(key);
      if (!ref) throw new Error(`basket ${key} was not made`);
      return ref;
    },
  };
  const out: { xml: string; cases: LabeledCase[] }[] = [];
  for (let i = 0; i < plan.cases.length; i += perFile) {
    const cs = plan.cases.slice(i, i + perFile);
    const entries = cs.map((c) => ({ ...c.entry(ctx), ref: `LBL-${plan.seed}-${c.n}` }));
    out.push({ xml: camt053(entries, { iban: "DE89370400440532013000" }), cases: cs });
  }
  return out;
}

// ------------------------------------------------------------------ running it

// The little an HTTP client needs to offer (test/support/api.ts's Api does).
export type Client = {
  call(method: string, path: string, o?: { body?: unknown; form?: FormData }): Promise<{ status: number; body: any; text: string }>;
};

// A plain HTTP client with an API key (no contract checks: the labeled set makes hundreds of calls).
export function httpClient(baseUrl: string, apiKey: string): Client {
  return {
    async call(method, p, o = {}) {
      const headers: Record<string, string> = { authorization: `Bearer ${apiKey}` };
      if (method === "POST") headers["idempotency-key"] = randomUUID();
      let body: BodyInit | undefined;
      if (o.form) body = o.form;
      else if (o.body !== undefined) {
        headers["content-type"] = "application/json";
        body = JSON.stringify(o.body);
      }
      const r = await fetch(`${baseUrl}/api/v1${p}`, { method, headers, body });
      const text = await r.text();
      let parsed: unknown;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = undefined;
      }
      return { status: r.status, body: parsed, text };
    },
  };
}

type Allocation = { obligation_id: string; amount_minor: string };
export type Outcome = {
  category: Category;
  note: string;
  paymentId: string;
  expected: { obligationId: string; amountMinor: bigint }[];
  autoExpected: boolean;
  tolerance: boolean; // short within the tolerance (allocated and credited with `confident`)
  auto: Allocation[]; // allocated at import
  top: { confidence: string; score: number; allocations: Allocation[] } | null; // the auto allocation, else the first suggestion
  top5: boolean; // the true allocation is the automatic one or among the (at most five) suggestions
};

const FIXTURES = path.join(import.meta.dirname, "..", "fixtures", "bank");

export function fixtureFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (!/^(LICENSE|SOURCE)/.test(e.name)) out.push(p);
    }
  };
  walk(FIXTURES);
  return out;
}

async function must(client: Client, method: string, p: string, o: { body?: unknown; form?: FormData } = {}, want = [200, 201]) {
  const res = await client.call(method, p, o);
  if (!want.includes(res.status)) throw new Error(`${method} ${p}: ${res.status} ${res.text.slice(0, 500)}`);
  return res.body;
}

async function upload(client: Client, bytes: Uint8Array | string, filename: string) {
  const form = new FormData();
  form.set("file", new Blob([typeof bytes === "string" ? bytes : new Uint8Array(bytes)]), filename);
  return client.call("POST", "/bank-statements", { form });
}

async function pool<T>(items: readonly T[], width: number, fn: (x: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) await fn(items[next++]);
    }),
  );
}

// Makes a basket as the payer does on the account page: the counterparty's account link
// (POST /counterparties/{id}/account-link), its token exchanged for the account's cookie,
// then POST /recipient/accounts/{account}/baskets. Returns the basket's payment reference.
async function makeBasket(client: Client, b: BasketSpec, registered: Map<string, Registered>): Promise<string> {
  const list = await must(client, "GET", `/counterparties?q=${encodeURIComponent(b.email)}`);
  const cp = (list.items as { id: string; email: string | null }[]).find((x) => x.email === b.email);
  if (!cp) throw new Error(`basket ${b.key}: no counterparty ${b.email}`);
  const link = await must(client, "POST", `/counterparties/${cp.id}/account-link`, { body: {} });
  const url = new URL(link.hosted_url as string);
  const base = `${url.origin}/api/v1/recipient/accounts/${url.pathname.split("/").pop()}`;
  const headers = { "content-type": "application/json", "x-service-request": "1" };
  const session = await fetch(`${base}/session`, {
    method: "POST",
    headers: { ...headers, "idempotency-key": randomUUID() },
    body: JSON.stringify({ token: url.hash.slice(1) }),
  });
  if (session.status !== 200) throw new Error(`basket ${b.key}: session ${session.status} ${await session.text()}`);
  const cookie = session.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const res = await fetch(`${base}/baskets`, {
    method: "POST",
    headers: { ...headers, cookie, "idempotency-key": randomUUID() },
    body: JSON.stringify({ items: b.items.map((it) => ({ obligation_id: registered.get(it.key)!.id, amount_minor: it.amountMinor.toString() })) }),
  });
  if (res.status !== 201) throw new Error(`basket ${b.key}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { payment_reference: string }).payment_reference;
}

// Registers the plan's obligations (main organization and the other tenant), makes the
// plan's baskets, imports the
// generated statements and the fixture statements into the main organization, and reads
// what the service did with each transaction.
export async function runLabeledSet(
  plan: LabeledPlan,
  clients: { main: Client; other: Client },
  // fixtures: false for none, or which sample files to import (default all of them)
  o: { fixtures?: boolean | ((file: string) => boolean); concurrency?: number; mode?: "reference_only" | "confident" } = {},
): Promise<Outcome[]> {
  const registered = new Map<string, Registered>();
  await pool(plan.obligations, o.concurrency ?? 4, async (spec) => {
    const b = await must(spec.tenant === "main" ? clients.main : clients.other, "POST", "/obligations", { body: spec.body });
    const ref = b.obligation.reference as string;
    registered.set(spec.key, { id: b.obligation.id, reference: ref, paymentReference: paymentReferenceFor(ref) });
  });
  const baskets = new Map<string, string>();
  for (const b of plan.baskets) baskets.set(b.key, await makeBasket(clients.main, b, registered));
  const outcomes: Outcome[] = [];
  const read = async (paymentId: string, base: Omit<Outcome, "paymentId" | "auto" | "top" | "top5">, autoAllocated: boolean) => {
    let auto: Allocation[] = [];
    let top: Outcome["top"] = null;
    let top5 = false;
    if (autoAllocated) {
      const p = await must(clients.main, "GET", `/payments/${paymentId}`);
      auto = (p.allocations as Allocation[]).map((a) => ({ obligation_id: a.obligation_id, amount_minor: a.amount_minor }));
      top = { confidence: "exact", score: 1, allocations: auto };
      top5 = base.expected.length > 0 && sameAllocation(auto, base.expected);
    } else {
      const s = await must(clients.main, "GET", `/payments/${paymentId}/suggestions`);
      const first = s.items[0];
      if (first) top = { confidence: first.confidence, score: first.score, allocations: first.allocations };
      top5 = base.expected.length > 0 && (s.items as { allocations: Allocation[] }[]).some((x) => sameAllocation(x.allocations, base.expected));
    }
    outcomes.push({ ...base, paymentId, auto, top, top5 });
  };
  for (const [i, st] of labeledStatements(plan, registered, baskets).entries()) {
    const res = await upload(clients.main, st.xml, `labeled-${plan.seed}-${i}.xml`);
    if (res.status !== 201) throw new Error(`import of labeled statement ${i}: ${res.status} ${res.text.slice(0, 500)}`);
    const detail = await must(clients.main, "GET", `/bank-statements/${res.body.id}`);
    if (detail.items.length !== st.cases.length) throw new Error(`labeled statement ${i}: ${detail.items.length} items for ${st.cases.length} cases`);
    const jobs = st.cases.map((c, k) => ({ c, item: detail.items[k] }));
    await pool(jobs, o.concurrency ?? 4, async ({ c, item }) => {
      if (!item.payment_id) throw new Error(`labeled case ${c.n}: no payment created`);
      const expected = c.expected.map((e) => ({ obligationId: registered.get(e.key)!.id, amountMinor: e.amountMinor }));
      const autoExpected = o.mode === "confident" ? c.autoConfident : c.auto;
      await read(item.payment_id, { category: c.category, note: c.note, expected, autoExpected, tolerance: c.tolerance }, item.match === "auto_allocated");
    });
  }
  if (o.fixtures !== false) {
    for (const file of fixtureFiles().filter((f) => typeof o.fixtures !== "function" || o.fixtures(f))) {
      const res = await upload(clients.main, readFileSync(file), path.basename(file));
      if (res.status !== 201) continue; // the samples that are malformed on purpose (see docs/bank-statements.md)
      const detail = await must(clients.main, "GET", `/bank-statements/${res.body.id}`);
      await pool(
        (detail.items as { payment_id: string | null; match: string; index: number }[]).filter((it) => it.payment_id),
        o.concurrency ?? 4,
        async (it) => {
          const note = `${path.relative(FIXTURES, file)} #${it.index}`;
          await read(it.payment_id!, { category: "fixture", note, expected: [], autoExpected: false, tolerance: false }, it.match === "auto_allocated");
        },
      );
    }
  }
  return outcomes;
}

// ------------------------------------------------------------------ scoring

const LEVELS = ["exact", "high", "medium", "low"] as const;
const RANK: Record<string, number> = { exact: 4, high: 3, medium: 2, low: 1 };

const sameAllocation = (got: Allocation[], want: Outcome["expected"]) =>
  got.length === want.length && want.every((w) => got.some((g) => g.obligation_id === w.obligationId && BigInt(g.amount_minor) === w.amountMinor));

export const isRight = (o: Outcome) => o.top !== null && o.expected.length > 0 && sameAllocation(o.top.allocations, o.expected);

export type Ratio = { n: number; of: number; value: number | null };
const ratio = (n: number, of: number): Ratio => ({ n, of, value: of === 0 ? null : n / of });
export type Figures = {
  transactions: number;
  withTrueMatch: number;
  auto: { precision: Ratio; recall: Ratio };
  // Transactions with a true match allocated rightly at import, of all with a true match
  // (tolerance cases included: allocated and their shortfall credited): the touchless rate.
  touchless: Ratio;
  top: { precision: Ratio; recall: Ratio };
  top5: Ratio; // the true allocation among the suggestions (or allocated), of all with a true match
  // The top suggestion counted only from a confidence level up (exact ... low).
  byLevel: { level: string; precision: Ratio; recall: Ratio; negativesSuggested: number }[];
  negativesSuggested: number; // transactions without a true match that got a suggestion (any level)
};

// Automatic allocations: precision over every transaction allocated at import, recall over
// the transactions where the right outcome is an automatic allocation. Top suggestion:
// precision over the transactions with a true match that got a suggestion, recall over all
// transactions with a true match; suggestions on transactions without a true match are
// counted apart (negativesSuggested).
export function figures(outcomes: readonly Outcome[]): Figures {
  const positives = outcomes.filter((o) => o.expected.length > 0);
  const autos = outcomes.filter((o) => o.auto.length > 0);
  const autoRight = autos.filter((o) => o.expected.length > 0 && sameAllocation(o.auto, o.expected));
  const level = (min: number) => {
    const shown = positives.filter((o) => o.top && RANK[o.top.confidence] >= min);
    const right = shown.filter(isRight);
    return {
      precision: ratio(right.length, shown.length),
      recall: ratio(right.length, positives.length),
      negativesSuggested: outcomes.filter((o) => o.expected.length === 0 && o.top && RANK[o.top.confidence] >= min).length,
    };
  };
  const all = level(1);
  return {
    transactions: outcomes.length,
    withTrueMatch: positives.length,
    auto: { precision: ratio(autoRight.length, autos.length), recall: ratio(autoRight.length, outcomes.filter((o) => o.autoExpected).length) },
    touchless: ratio(autoRight.length, positives.length),
    top5: ratio(positives.filter((o) => o.top5).length, positives.length),
    top: { precision: all.precision, recall: all.recall },
    byLevel: LEVELS.map((l) => ({ level: l, ...level(RANK[l]) })),
    negativesSuggested: all.negativesSuggested,
  };
}

// Wrong or missed cases: a wrong automatic allocation, a wrong top suggestion, a missed
// true match, or a suggestion `high` or above on a transaction without a true match.
export function problems(outcomes: readonly Outcome[]): { kind: string; o: Outcome }[] {
  const out: { kind: string; o: Outcome }[] = [];
  for (const o of outcomes) {
    if (o.auto.length > 0 && !(o.expected.length > 0 && sameAllocation(o.auto, o.expected))) out.push({ kind: "wrong automatic allocation", o });
    else if (o.expected.length > 0 && !o.top) out.push({ kind: "missed", o });
    else if (o.expected.length > 0 && !isRight(o)) out.push({ kind: "wrong top suggestion", o });
    else if (o.expected.length === 0 && o.top && RANK[o.top.confidence] >= RANK.high)
      out.push({ kind: `${o.top.confidence} suggestion without a true match`, o });
  }
  return out;
}

// Sets the organization's reconciliation settings as its owner would (PUT needs an owner or
// admin session): signs in with the password, then PUT /reconciliation-settings.
export async function applySettings(baseUrl: string, owner: { email: string; password: string }, body: unknown): Promise<void> {
  const login = await fetch(`${baseUrl}/api/v1/session`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: owner.email, password: owner.password }),
  });
  if (login.status !== 200) throw new Error(`sign-in: ${login.status} ${await login.text()}`);
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const r = await fetch(`${baseUrl}/api/v1/reconciliation-settings`, {
    method: "PUT",
    headers: { "content-type": "application/json", cookie, "idempotency-key": randomUUID() },
    body: JSON.stringify(body),
  });
  if (r.status !== 200) throw new Error(`PUT /reconciliation-settings: ${r.status} ${await r.text()}`);
}

export const QUALITY_SETTINGS = { auto_allocate: "confident", tolerance: { max_minor: "2500", max_basis_points: 200, kind: "bank_fee" } } as const;
