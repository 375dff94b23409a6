// Pure checks and layout of bank details (no I/O): IBAN (ISO 13616) by `ibantools` (the
// registry's country lengths and BBAN structures, national check digits, mod-97), BIC
// (ISO 9362) by format. The hosted page imports only `groupsOfFour` (ibantools is an ES
// module without side effects, so the page's bundle leaves it out).

import { ValidationErrorsIBAN, validateIBAN } from "ibantools";

// Spaces (people copy IBANs in groups of four) and case are ignored.
export const compactIban = (s: string): string => s.replace(/\s+/g, "").toUpperCase();

export type IbanProblem = "format" | "country" | "length" | "checksum";

// null when valid; else what is wrong (for a message naming the problem). A country without
// IBANs is refused, as banks do.
export function ibanProblem(input: string): IbanProblem | null {
  const s = compactIban(input);
  if (!/^[A-Z]{2}[0-9]{2}[A-Z0-9]{1,30}$/.test(s)) return "format";
  const { errorCodes } = validateIBAN(s);
  if (errorCodes.includes(ValidationErrorsIBAN.NoIBANCountry)) return "country";
  if (errorCodes.includes(ValidationErrorsIBAN.WrongBBANLength)) return "length";
  if (errorCodes.includes(ValidationErrorsIBAN.WrongBBANFormat)) return "format";
  return errorCodes.length === 0 ? null : "checksum";
}

// 4 letters bank, 2 letters country, 2 letters/digits location, optional 3 letters/digits branch.
export const isValidBic = (s: string): boolean => /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(s.trim().toUpperCase());

// "DE89370400440532013000" -> "DE89 3704 0044 0532 0130 00" (also RF references).
export const groupsOfFour = (s: string): string => s.replace(/\s+/g, "").replace(/(.{4})(?=.)/g, "$1 ");
