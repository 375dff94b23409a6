import { statementIdentities } from "@/lib/bank-statements/identity";
import { MAX_REMITTANCE, type ParsedStatement } from "@/lib/bank-statements/types";

// A parsed statement as the parse worker hands it to the request thread: each transaction's
// identity computed here, over the whole texts (a hostile file's megabytes of an EndToEndId
// or remittance are hashed in the worker, not on the request thread), and the texts the
// import reads only up to MAX_REMITTANCE (remittance, reference) or not at all once the
// identity is known (bank references, counterparty account) cut to that length, so that
// megabytes of them are neither copied back nor scanned there. The counterparty's name is
// stored as it is, and left whole.
export function boundForImport(statement: ParsedStatement): ParsedStatement {
  const identities = statementIdentities(statement);
  const cut = (s: string) => (s.length > MAX_REMITTANCE ? s.slice(0, MAX_REMITTANCE) : s);
  const transactions = statement.transactions.map((t) => ({
    ...t,
    unstructured: cut(t.unstructured),
    structuredReference: cut(t.structuredReference),
    accountServicerReference: cut(t.accountServicerReference),
    endToEndId: cut(t.endToEndId),
    uetr: cut(t.uetr),
    counterpartyAccount: cut(t.counterpartyAccount),
  }));
  return { ...statement, transactions, identities };
}
