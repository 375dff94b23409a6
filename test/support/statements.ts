import { randomUUID } from "node:crypto";
import type { Api } from "./api";

// Builds ISO 20022 camt.053.001.02 statements for tests with known answers.
export type Entry = {
  amount: string; // decimal, e.g. "125.00"
  currency?: string;
  credit?: boolean; // default true (incoming)
  date?: string; // booking date
  name?: string; // counterparty
  ustrd?: string; // unstructured remittance
  rf?: string; // structured creditor reference
  ref?: string; // AcctSvcrRef (default: random)
};

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

export function camt053(entries: Entry[], o: { iban?: string; from?: string; to?: string } = {}): string {
  const iban = o.iban ?? "DE89370400440532013000";
  const ntry = entries
    .map((e) => {
      const cd = e.credit === false ? "DBIT" : "CRDT";
      const party = e.credit === false ? "Cdtr" : "Dbtr";
      const ref = e.ref ?? `T${randomUUID().replace(/-/g, "").slice(0, 16)}`;
      const rmt = [
        e.ustrd ? `<Ustrd>${esc(e.ustrd)}</Ustrd>` : "",
        e.rf ? `<Strd><CdtrRefInf><Tp><CdOrPrtry><Cd>SCOR</Cd></CdOrPrtry><Issr>ISO</Issr></Tp><Ref>${esc(e.rf)}</Ref></CdtrRefInf></Strd>` : "",
      ].join("");
      return `<Ntry><Amt Ccy="${e.currency ?? "EUR"}">${e.amount}</Amt><CdtDbtInd>${cd}</CdtDbtInd><Sts>BOOK</Sts>
<BookgDt><Dt>${e.date ?? "2026-11-20"}</Dt></BookgDt><ValDt><Dt>${e.date ?? "2026-11-20"}</Dt></ValDt><AcctSvcrRef>${ref}</AcctSvcrRef>
<BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>RCDT</Cd><SubFmlyCd>ESCT</SubFmlyCd></Fmly></Domn></BkTxCd>
<NtryDtls><TxDtls><Refs><AcctSvcrRef>${ref}</AcctSvcrRef><EndToEndId>NOTPROVIDED</EndToEndId></Refs>
<AmtDtls><TxAmt><Amt Ccy="${e.currency ?? "EUR"}">${e.amount}</Amt></TxAmt></AmtDtls>
<RltdPties><${party}><Nm>${esc(e.name ?? "")}</Nm></${party}></RltdPties>
${rmt ? `<RmtInf>${rmt}</RmtInf>` : ""}</TxDtls></NtryDtls></Ntry>`;
    })
    .join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt>
<GrpHdr><MsgId>M${randomUUID().slice(0, 8)}</MsgId><CreDtTm>2026-11-21T08:00:00</CreDtTm></GrpHdr>
<Stmt><Id>S${randomUUID().slice(0, 8)}</Id><CreDtTm>2026-11-21T08:00:00</CreDtTm>
<FrToDt><FrDtTm>${o.from ?? "2026-11-01"}T00:00:00</FrDtTm><ToDtTm>${o.to ?? "2026-11-30"}T23:59:59</ToDtTm></FrToDt>
<Acct><Id><IBAN>${iban}</IBAN></Id><Ccy>EUR</Ccy></Acct>
${ntry}
</Stmt></BkToCstmrStmt></Document>`;
}

export function upload(api: Api, content: string | Uint8Array, fields: Record<string, string> = {}, o: { filename?: string; idempotencyKey?: string } = {}) {
  const form = new FormData();
  form.set("file", new Blob([typeof content === "string" ? content : new Uint8Array(content)]), o.filename ?? "statement.xml");
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  return api.call("POST", "/bank-statements", { form, ...(o.idempotencyKey ? { idempotencyKey: o.idempotencyKey } : {}) });
}
