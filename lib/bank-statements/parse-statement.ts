// Bytes of an uploaded bank statement -> ParsedStatement. The format is detected from the
// content when not given: camt.053 / camt.054 by the ISO 20022 namespace or root element,
// MT940 by its tags, CSV when it looks like delimited text; anything else is refused.

import type { TCsvMapping } from "./csv-mapping";
import { parseCamt } from "./parse-camt";
import { parseCsv } from "./parse-csv";
import { parseMt940 } from "./parse-mt940";
import { decodeText, dropControl } from "./text";
import { type ParsedStatement, StatementError, type StatementFormat } from "./types";

export type ParseStatementOptions = { format?: StatementFormat; csvMapping?: TCsvMapping };

const MT940_TAG = /^:(20|21|25|28C?|60[FM]|61|62[FM]|64|65|86):/m;

// Delimited text: some delimiter splits at least two lines into the same number of fields.
function looksDelimited(text: string): boolean {
  const lines = text.split(/\r\n|\r|\n/, 60).filter((l) => l.trim() !== "");
  for (const d of [";", ",", "\t", "|"]) {
    const seen = new Set<number>();
    for (const l of lines) {
      const n = l.split(d).length - 1;
      if (n === 0) continue;
      if (seen.has(n)) return true;
      seen.add(n);
    }
  }
  return false;
}

export function detectFormat(bytes: Uint8Array): StatementFormat {
  const head = bytes.subarray(0, 64 * 1024);
  // Binary content (PDF, images, archives, spreadsheets) has NUL bytes. Other control bytes
  // alone do not make a file binary: SWIFT transmissions frame each MT940 message with
  // SOH (0x01) and ETX (0x03), as some banks' exports still do (the parser drops them); such
  // a file is text when its tags are there.
  const utf16 = (head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff);
  let nul = 0;
  let control = 0;
  if (!utf16)
    for (const b of head) {
      if (b === 0) nul++;
      else if (b < 9) control++;
    }
  const binary = () => new StatementError("unsupported", "The file is binary, not a bank statement (camt.053, camt.054, MT940 or CSV)");
  if (nul > 0) throw binary();
  const text = dropControl(decodeText(head)).replace(/^\s+/, "");
  if (control > 0) {
    if (text.split(/\r\n|\r|\n/, 12).some((l) => MT940_TAG.test(l))) return "mt940";
    throw binary();
  }
  if (text.startsWith("%PDF")) throw new StatementError("unsupported", "PDF statements are not read; export camt.053, MT940 or CSV from your bank");
  if (text.startsWith("<")) {
    const ns = /urn:iso:std:iso:20022:tech:xsd:(camt\.05[2-9])\.\d{3}\.\d{2}/.exec(text);
    if (ns?.[1] === "camt.053" || (!ns && /<(\w+:)?BkToCstmrStmt[\s/>]/.test(text))) return "camt.053";
    if (ns?.[1] === "camt.054" || (!ns && /<(\w+:)?BkToCstmrDbtCdtNtfctn[\s/>]/.test(text))) return "camt.054";
    if (/^<!doctype html|^<html/i.test(text)) throw new StatementError("unsupported", "The file is an HTML page, not a bank statement");
    throw new StatementError("unsupported", `The XML file is not a camt.053 or camt.054 statement${ns ? ` (it is ${ns[1]})` : ""}`);
  }
  const lines = text.split(/\r\n|\r|\n/, 12);
  if (lines.some((l) => MT940_TAG.test(l))) return "mt940";
  if (looksDelimited(text)) return "csv";
  throw new StatementError("unsupported", "The file is not a bank statement we read (camt.053, camt.054, MT940 or CSV)");
}

export function parseStatement(bytes: Uint8Array, opts: ParseStatementOptions = {}): ParsedStatement {
  const format = opts.format ?? detectFormat(bytes);
  switch (format) {
    case "camt.053":
    case "camt.054":
      return parseCamt(bytes, format);
    case "mt940":
      return parseMt940(bytes);
    case "csv":
      return parseCsv(bytes, opts.csvMapping);
  }
}
