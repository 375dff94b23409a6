// The bank's identity of a transaction, used as the payment's external_reference so that
// importing the same file again, or a statement that overlaps an earlier one, creates no
// duplicate payment.

import { trimEndChar } from "@/lib/strings";
import { createHash } from "node:crypto";
import { collapse } from "./text";
import type { ParsedStatement, ParsedTransaction } from "./types";

// `bank:<IBAN or account id>` of the transaction's account (a multi-account file sets
// `transaction.account` where it differs from the statement's).
export function accountNamespace(statement: ParsedStatement, transaction?: ParsedTransaction): string {
  const a = transaction?.account ?? statement.account;
  return `bank:${a.iban || a.identifier || "unknown-account"}`;
}

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");
// "8.850" and "8.85" are the same amount whichever export wrote it.
const amountKey = (a: string) => (a.includes(".") ? trimEndChar(trimEndChar(a, "0"), ".") : a);

// AcctSvcrRef (or MT940 bank reference) and UETR are unique by design and used as written.
// Then the EndToEndId (unless NOTPROVIDED). Without any of them: a hash of what the
// transaction says.
function baseKey(t: ParsedTransaction): string {
  if (t.accountServicerReference) return t.accountServicerReference;
  if (t.uetr) return t.uetr.toLowerCase();
  // The bank's transaction identity as the API specifies it: AcctSvcrRef, else UETR, else the
  // EndToEndId unless NOTPROVIDED. (A payer-chosen EndToEndId reused every month would make later
  // months duplicates: banks that send no AcctSvcrRef/UETR and such ids are rare; see docs.)
  if (t.endToEndId && t.endToEndId.toUpperCase() !== "NOTPROVIDED") return t.endToEndId;
  return "";
}

function contentKey(t: ParsedTransaction): string {
  return JSON.stringify([
    t.bookedOn,
    t.direction,
    amountKey(t.amount),
    t.currency,
    collapse(t.counterpartyName).toLowerCase(),
    t.counterpartyAccount.replace(/\s+/g, "").toUpperCase(),
    t.structuredReference,
    collapse(t.unstructured).toLowerCase(),
  ]);
}

const cache = new WeakMap<ParsedStatement, string[]>();

// All identities of a statement, by transaction index, computed once (linear).
// "Position" is the occurrence among transactions of the statement that would otherwise get
// the same identity (identical transactions of the same day, or the members of a batch that
// share the entry's reference) - not the position in the file, so an overlapping export with
// extra days before or after still yields the same identities.
// (A statement from the parse worker carries them: lib/bank-statements/bound-for-import.ts.)
export function statementIdentities(statement: ParsedStatement): string[] {
  if (statement.identities?.length === statement.transactions.length) return statement.identities;
  const hit = cache.get(statement);
  if (hit) return hit;
  const seen = new Map<string, number>();
  const out = statement.transactions.map((t) => {
    const ns = accountNamespace(statement, t);
    const key = baseKey(t);
    const group = `${ns}\u0000${key || contentKey(t)}`;
    const n = seen.get(group) ?? 0;
    seen.set(group, n + 1);
    if (!key) return sha256(`${contentKey(t)}#${n}`);
    const id = n === 0 ? key : `${key}#${n}`;
    return id.length <= 200 ? id : `sha256:${sha256(id)}`;
  });
  cache.set(statement, out);
  return out;
}

export function transactionIdentity(t: ParsedTransaction, statement: ParsedStatement): string {
  const ids = statementIdentities(statement);
  const id = statement.transactions[t.index] === t ? ids[t.index] : undefined;
  if (id !== undefined) return id;
  // A transaction object that is not (or no longer) the statement's own: find it by position.
  const k = statement.transactions.indexOf(t);
  if (k < 0) throw new Error("transactionIdentity: the transaction does not belong to the statement");
  return ids[k];
}
