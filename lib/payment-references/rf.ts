// ISO 11649 structured creditor references ("RF references"): `RF` + two check digits +
// 1..21 letters or digits. Valid when, with the first four characters moved to the end and
// letters turned into numbers (A=10 .. Z=35), the number mod 97 is 1. BigInt-free: the
// remainder is folded digit by digit, so any length works.
//
// Every obligation carries one (`payment_reference`), made from the body of its own
// reference (`OBL-7K3M...` -> `RF..7K3M...`), so it is unique wherever the reference is.
// The same function runs in migration 0006 (fos_rf_reference) for the backfill.

import { mod97 } from "@/lib/payment-references/mod97";

const BODY = /^[A-Z0-9]{1,21}$/;

// The RF reference for a body of 1..21 letters/digits (case-insensitive).
export function rfReference(body: string): string {
  const b = body.toUpperCase();
  if (!BODY.test(b)) throw new Error("an RF reference body is 1 to 21 letters or digits");
  const check = 98 - mod97(`${b}RF00`);
  return `RF${String(check).padStart(2, "0")}${b}`;
}

// Spaces and case are ignored: "rf18 5390 0754 7034" is valid.
export function normalizeRf(s: string): string {
  return s.replace(/\s+/g, "").toUpperCase();
}

export function isValidRf(s: string): boolean {
  const n = normalizeRf(s);
  if (!/^RF\d{2}[A-Z0-9]{1,21}$/.test(n)) return false;
  return mod97(`${n.slice(4)}${n.slice(0, 4)}`) === 1;
}

// For people: groups of four ("RF18 5390 0754 7034"). Stored and sent without spaces.
export function formatRf(s: string): string {
  return normalizeRf(s).replace(/(.{4})(?=.)/g, "$1 ");
}

// The payment reference of an obligation from its reference (`OBL-XXXXXXXXXX`).
export function paymentReferenceFor(obligationReference: string): string {
  return rfReference(obligationReference.replace(/[^A-Za-z0-9]/g, "").replace(/^OBL/i, ""));
}

// Checksum-valid RF references in free text (remittance information), normalized. Spaces
// inside a reference are allowed only as the groups-of-four separator people type.
export function findRfReferences(text: string): string[] {
  const out = new Set<string>();
  const re = /\bRF\s?\d{2}(?:\s?[A-Z0-9]){1,21}\b/gi;
  for (const m of text.matchAll(re)) {
    const compact = normalizeRf(m[0]);
    // The match may have swallowed a following word; try the longest valid prefix.
    for (let end = compact.length; end >= 5; end--) {
      const cand = compact.slice(0, end);
      if (isValidRf(cand)) {
        out.add(cand);
        break;
      }
    }
  }
  return [...out];
}
