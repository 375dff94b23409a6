import { minorToDecimal } from "@/lib/money/format";

// EPC069-12 "Quick Response Code: guidelines to enable data capture for the initiation of a
// SEPA credit transfer" (the "GiroCode"), version 002. One field per line (LF):
//   BCD | 002 | 1 (UTF-8) | SCT | BIC (optional in 002) | beneficiary name (<= 70) |
//   IBAN | EUR<amount, dot, <= 2 decimals> | purpose code | structured remittance (the RF
//   creditor reference) | unstructured remittance | beneficiary-to-originator information
// Structured and unstructured remittance exclude each other; the last filled field ends the
// payload (no trailing line feed), so with an RF reference the payload has 10 lines.
export type EpcInput = { bic?: string | null; holder: string; iban: string; amountMinor?: string | null; reference?: string | null };

export const EPC_MAX_AMOUNT_MINOR = 99_999_999_999n; // EUR 999,999,999.99

export function epcPayload(i: EpcInput): string | null {
  if (!i.iban || !i.holder) return null;
  const amount =
    i.amountMinor && BigInt(i.amountMinor) > 0n && BigInt(i.amountMinor) <= EPC_MAX_AMOUNT_MINOR ? `EUR${minorToDecimal(i.amountMinor, "EUR")}` : "";
  const fields = [
    "BCD",
    "002",
    "1",
    "SCT",
    (i.bic ?? "").toUpperCase(),
    i.holder.slice(0, 70),
    i.iban.replace(/\s+/g, "").toUpperCase(),
    amount,
    "",
    i.reference ?? "",
  ];
  while (fields[fields.length - 1] === "") fields.pop();
  return fields.join("\n");
}

// A QR symbol's dark modules as one SVG path (1 unit per module, offset by the quiet zone),
// horizontal runs merged: small markup, crisp at any size, no inline style (CSP).
export function qrPath(modules: { size: number; data: ArrayLike<number> }, quiet = 4): string {
  const n = modules.size;
  let d = "";
  for (let y = 0; y < n; y++) {
    let x = 0;
    while (x < n) {
      if (!modules.data[y * n + x]) {
        x++;
        continue;
      }
      const start = x;
      while (x < n && modules.data[y * n + x]) x++;
      d += `M${start + quiet} ${y + quiet}h${x - start}v1h${start - x}z`;
    }
  }
  return d;
}
