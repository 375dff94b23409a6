// ISO 7064 MOD 97-10, the check of RF creditor references (rf.ts; IBANs are checked by
// ibantools in lib/payment-instructions/bank-details.ts): letters turned into numbers
// (A=10 .. Z=35) and the remainder folded digit by digit, so any length works without BigInt.
export function mod97(s: string): number {
  let r = 0;
  for (const ch of s) {
    const c = ch.charCodeAt(0);
    const v = c >= 48 && c <= 57 ? c - 48 : c - 55; // 0-9, A=10 .. Z=35
    r = v < 10 ? (r * 10 + v) % 97 : (r * 100 + v) % 97;
  }
  return r;
}
