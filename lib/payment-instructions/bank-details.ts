// Pure checks and layout of bank details (no I/O): IBAN (ISO 13616) by country length and
// its mod-97 check digits, BIC (ISO 9362) by format. Used by the API schema and, being tiny,
// also by the hosted page (grouping) without pulling any validation library into the client.

import { mod97 } from "@/lib/payment-references/mod97";

// Lengths of the IBAN of every country in the SWIFT IBAN registry (plus a few long-standing
// national IBANs outside it). An unknown country code is refused: banks do the same.
export const IBAN_LENGTHS: Record<string, number> = {
  AD: 24,
  AE: 23,
  AL: 28,
  AT: 20,
  AZ: 28,
  BA: 20,
  BE: 16,
  BG: 22,
  BH: 22,
  BI: 27,
  BR: 29,
  BY: 28,
  CH: 21,
  CR: 22,
  CY: 28,
  CZ: 24,
  DE: 22,
  DJ: 27,
  DK: 18,
  DO: 28,
  EE: 20,
  EG: 29,
  ES: 24,
  FI: 18,
  FK: 18,
  FO: 18,
  FR: 27,
  GB: 22,
  GE: 22,
  GI: 23,
  GL: 18,
  GR: 27,
  GT: 28,
  HN: 28,
  HR: 21,
  HU: 28,
  IE: 22,
  IL: 23,
  IQ: 23,
  IS: 26,
  IT: 27,
  JO: 30,
  KW: 30,
  KZ: 20,
  LB: 28,
  LC: 32,
  LI: 21,
  LT: 20,
  LU: 20,
  LV: 21,
  LY: 25,
  MC: 27,
  MD: 24,
  ME: 22,
  MK: 19,
  MN: 20,
  MR: 27,
  MT: 31,
  MU: 30,
  NI: 28,
  NL: 18,
  NO: 15,
  OM: 23,
  PK: 24,
  PL: 28,
  PS: 29,
  PT: 25,
  QA: 29,
  RO: 24,
  RS: 22,
  RU: 33,
  SA: 24,
  SC: 31,
  SD: 18,
  SE: 24,
  SI: 19,
  SK: 24,
  SM: 27,
  SO: 23,
  ST: 25,
  SV: 28,
  TL: 23,
  TN: 24,
  TR: 26,
  UA: 29,
  VA: 22,
  VG: 24,
  XK: 20,
  YE: 30,
};

// Spaces (people copy IBANs in groups of four) and case are ignored.
export const compactIban = (s: string): string => s.replace(/\s+/g, "").toUpperCase();

export type IbanProblem = "format" | "country" | "length" | "checksum";

// null when valid; else what is wrong (for a message naming the problem).
export function ibanProblem(input: string): IbanProblem | null {
  const s = compactIban(input);
  if (!/^[A-Z]{2}[0-9]{2}[A-Z0-9]{1,30}$/.test(s)) return "format";
  const len = IBAN_LENGTHS[s.slice(0, 2)];
  if (!len) return "country";
  if (s.length !== len) return "length";
  return mod97(`${s.slice(4)}${s.slice(0, 4)}`) === 1 ? null : "checksum";
}

export const isValidIban = (s: string): boolean => ibanProblem(s) === null;

// 4 letters bank, 2 letters country, 2 letters/digits location, optional 3 letters/digits branch.
export const isValidBic = (s: string): boolean => /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(s.trim().toUpperCase());

// "DE89370400440532013000" -> "DE89 3704 0044 0532 0130 00" (also RF references).
export const groupsOfFour = (s: string): string => s.replace(/\s+/g, "").replace(/(.{4})(?=.)/g, "$1 ");
