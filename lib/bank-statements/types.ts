// The one shape every bank statement parser (camt.053, camt.054, MT940, CSV) produces, and
// that the import (lib/reconciliation/) turns into payments. Parsers are pure: bytes in,
// ParsedStatement out, or a StatementError.

export type StatementFormat = "camt.053" | "camt.054" | "mt940" | "csv";

export type ParsedTransaction = {
  // Position of the transaction in the file (0-based, in reading order; a batch booking's
  // transactions get consecutive positions). Part of the fallback identity.
  index: number;
  // CRDT / C / positive amount = incoming (money received); DBIT / D / negative = outgoing.
  // A reversal (camt RvslInd, MT940 RC/RD) keeps the direction of the money movement itself.
  direction: "incoming" | "outgoing";
  // Absolute amount as the decimal string of the file, normalized to "." and no grouping
  // ("1234.5", "0.01"). The importer converts it exactly to minor units of `currency`.
  amount: string;
  currency: string; // ISO 4217 code as in the file (upper case)
  bookedOn: string; // YYYY-MM-DD: booking date, else value date
  valueOn: string; // YYYY-MM-DD or ""
  counterpartyName: string; // the other party (debtor of a credit, creditor of a debit), or ""
  counterpartyAccount: string; // its IBAN or account id, or ""
  // Structured creditor reference (e.g. an RF reference) when the bank delivered one, else "".
  structuredReference: string;
  // Unstructured remittance information, joined with single spaces, or "".
  unstructured: string;
  // Bank-side identities, "" when absent: camt AcctSvcrRef, UETR, EndToEndId (NOTPROVIDED
  // is turned into ""); MT940 bank reference (after // in :61:) and EREF+ / /EREF/.
  accountServicerReference: string;
  uetr: string;
  endToEndId: string;
  bankTransactionCode: string; // e.g. PMNT/RCDT/ESCT, MT940 N051, or ""
  // Set only when the file holds statements of several accounts (a multi-account MT940 or
  // camt file) and this transaction's account differs from `ParsedStatement.account`; the
  // identity namespace (accountNamespace in identity.ts) then follows the transaction's account.
  account?: { iban: string; identifier: string; currency: string };
};

// A booked balance as the statement gives it: decimal string as `amount` of a transaction,
// `credit` false for a debit (negative) balance, the day it is the balance of.
export type StatementBalance = { amount: string; credit: boolean; on: string; currency: string };

export type ParsedStatement = {
  format: StatementFormat;
  account: { iban: string; identifier: string; currency: string }; // "" when absent
  period: { from: string; to: string }; // YYYY-MM-DD, "" when the file has none
  transactions: ParsedTransaction[]; // booked transactions only
  // Opening booked balance of the first statement and closing booked balance of the last
  // (MT940 :60F:/:62F:, camt OPBD/CLBD); absent or null when the file has none.
  balances?: { opening: StatementBalance | null; closing: StatementBalance | null };
  // Each transaction's identity (lib/bank-statements/identity.ts), computed where the file was
  // parsed (the parse worker, over the texts before they were cut to MAX_REMITTANCE).
  identities?: string[];
};

// The remittance kept and matched per transaction: far above any bank's (SEPA 140, MT940
// :86: 390 characters), so that a hostile file's megabytes of it are neither tokenized by
// the matching engine on the request thread nor stored.
export const MAX_REMITTANCE = 4000;

// `unsupported` -> 415 unsupported_media_type (not a statement we know);
// `unreadable` -> 422 statement_unreadable (message names the line or element);
// `too_many` -> 422 validation_failed (over the transaction limit).
export class StatementError extends Error {
  constructor(
    readonly kind: "unsupported" | "unreadable" | "too_many",
    message: string,
  ) {
    super(message);
    this.name = "StatementError";
  }
}

export const MAX_STATEMENT_TRANSACTIONS = 20_000;
