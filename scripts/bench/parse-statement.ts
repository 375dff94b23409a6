// Benchmark of the pure bank statement parsers (no server, no database): generated
// statements of n transactions (default 10,000) in camt.053 (one TxDtls per entry, plus
// batches of 3), MT940 (German ?20 structure) and CSV (German export), each parsed 3 times,
// with transaction identities computed. Prints the file size and the best time per format.
//
//   npx tsx scripts/bench/parse-statement.ts [n]
import { statementIdentities } from "../../lib/bank-statements/identity";
import { parseStatement } from "../../lib/bank-statements/parse-statement";

const N = Math.min(Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 10_000), 20_000);
const day = (i: number) => `2024-${String(1 + (i % 12)).padStart(2, "0")}-${String(1 + (i % 28)).padStart(2, "0")}`;
const amount = (i: number) => `${(i * 37) % 100000}.${String(i % 100).padStart(2, "0")}`;

function camt(): string {
  const out: string[] = [];
  for (let i = 0; i < N; ) {
    if (i % 50 === 0 && i + 3 <= N) {
      const tx = (k: number) =>
        `<TxDtls><Refs><AcctSvcrRef>B${i}-${k}</AcctSvcrRef></Refs><Amt Ccy="EUR">1.00</Amt><RltdPties><Dbtr><Nm>Payer ${i + k}</Nm></Dbtr></RltdPties><RmtInf><Ustrd>INV-${i + k}</Ustrd></RmtInf></TxDtls>`;
      out.push(
        `<Ntry><Amt Ccy="EUR">3.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts><BookgDt><Dt>${day(i)}</Dt></BookgDt><NtryDtls>${tx(0)}${tx(1)}${tx(2)}</NtryDtls></Ntry>`,
      );
      i += 3;
      continue;
    }
    out.push(
      `<Ntry><Amt Ccy="EUR">${amount(i)}</Amt><CdtDbtInd>${i % 3 ? "CRDT" : "DBIT"}</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts><BookgDt><Dt>${day(i)}</Dt></BookgDt><ValDt><Dt>${day(i)}</Dt></ValDt><AcctSvcrRef>R${i}</AcctSvcrRef><BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>RCDT</Cd><SubFmlyCd>ESCT</SubFmlyCd></Fmly></Domn></BkTxCd><NtryDtls><TxDtls><Refs><EndToEndId>E${i}</EndToEndId></Refs><RltdPties><Dbtr><Pty><Nm>Customer ${i % 997}</Nm></Pty></Dbtr><DbtrAcct><Id><IBAN>DE02120300000000202051</IBAN></Id></DbtrAcct><Cdtr><Pty><Nm>Us</Nm></Pty></Cdtr></RltdPties><RmtInf><Ustrd>Invoice INV-${i} thank you</Ustrd><Strd><CdtrRefInf><Ref>RF18539007547034</Ref></CdtrRefInf></Strd></RmtInf></TxDtls></NtryDtls></Ntry>\n`,
    );
    i++;
  }
  return `<?xml version="1.0" encoding="UTF-8"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt><GrpHdr><MsgId>B</MsgId><CreDtTm>2024-12-31T00:00:00</CreDtTm></GrpHdr><Stmt><Id>S</Id><Acct><Id><IBAN>DE89370400440532013000</IBAN></Id><Ccy>EUR</Ccy></Acct>${out.join("")}</Stmt></BkToCstmrStmt></Document>`;
}

function mt940(): string {
  const out = [":20:BENCH", ":25:DE89370400440532013000", ":28C:1/1", ":60F:C240101EUR0,00"];
  for (let i = 0; i < N; i++) {
    const d = day(i).slice(2).replace(/-/g, "");
    out.push(`:61:${d}${d.slice(2)}${i % 3 ? "C" : "D"}${amount(i).replace(".", ",")}NTRFNONREF//R${i}`);
    out.push(`:86:166?00GUTSCHRIFT?100399?20EREF+E${i}?21SVWZ+Invoice INV-${i} than?22k you?30BYLADEM1001?31DE02120300000000202051?32Customer ${i % 997}`);
  }
  out.push(":62F:C241231EUR0,00", "-");
  return out.join("\r\n");
}

function csv(): string {
  const out = [
    '"Konto:";"DE89370400440532013000"',
    '"Zeitraum:";"2024"',
    "",
    "",
    '"Buchungstag";"Valuta";"Auftraggeber/Empfänger";"Verwendungszweck";"Betrag (EUR)"',
  ];
  for (let i = 0; i < N; i++) {
    const [y, m, d] = day(i).split("-");
    const [int, frac] = amount(i).split(".");
    out.push(
      `"${d}.${m}.${y}";"${d}.${m}.${y}";"Customer ${i % 997}";"Invoice INV-${i}; thank you";"${i % 3 ? "" : "-"}${int.replace(/\B(?=(\d{3})+(?!\d))/g, ".")},${frac}"`,
    );
  }
  return out.join("\r\n");
}

for (const [name, make] of [
  ["camt.053", camt],
  ["mt940", mt940],
  ["csv", csv],
] as const) {
  const bytes = new TextEncoder().encode(make());
  let best = Number.POSITIVE_INFINITY;
  let count = 0;
  for (let run = 0; run < 3; run++) {
    const t0 = performance.now();
    const s = parseStatement(bytes);
    count = statementIdentities(s).length;
    best = Math.min(best, performance.now() - t0);
  }
  console.log(`${name.padEnd(9)} ${(bytes.length / 1024 / 1024).toFixed(2)} MiB  ${count} transactions  best of 3: ${best.toFixed(0)} ms`);
}
