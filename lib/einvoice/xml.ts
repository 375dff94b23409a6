import { MAX_XML_DEPTH, safeXmlParser as parser } from "@/lib/xml/safe-parser";
import { scanXml } from "@/lib/xml/scan";

// Safe XML for e-invoices, with the service's one parser configuration
// (lib/xml/safe-parser.ts): a DOCTYPE or ENTITY declaration is refused before parsing, depth
// is checked first, and the navigation helpers below read the tree.

export { MAX_XML_DEPTH };

export class XmlRefused extends Error {
  constructor(
    message: string,
    readonly kind: "doctype" | "malformed" | "depth",
  ) {
    super(message);
  }
}

export type XNode = Record<string, unknown>;

// Text of an XML file: UTF-8 (BOM dropped). Throws XmlRefused for DTDs and bad markup.
export function decodeXml(bytes: Uint8Array): string {
  let b = bytes;
  if (b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) b = b.subarray(3);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(b);
  } catch {
    throw new XmlRefused("the XML is not valid UTF-8", "malformed");
  }
  return text;
}

// True when the text declares a DTD or entities (anywhere: a DOCTYPE can only come before
// the root, but an ENTITY in a CDATA section costs nothing to refuse too).
export function declaresDtd(text: string): boolean {
  return /<!DOCTYPE/i.test(text) || /<!ENTITY/i.test(text);
}

export function parseXml(text: string): XNode {
  if (declaresDtd(text)) throw new XmlRefused("a DOCTYPE or ENTITY declaration is not accepted (no DTD or entity is ever resolved)", "doctype");
  if (depthOf(text) > MAX_XML_DEPTH) throw new XmlRefused(`the XML nests deeper than ${MAX_XML_DEPTH} elements`, "depth");
  try {
    return parser.parse(text, true) as XNode;
  } catch (e) {
    throw new XmlRefused(`the XML is not well-formed: ${(e as Error).message.slice(0, 200)}`, "malformed");
  }
}

// The element depth, counted up to one past MAX_XML_DEPTH (lib/xml/scan.ts); XmlRefused for
// markup no parser is given.
export function depthOf(text: string): number {
  const { depth, problem } = scanXml(text, MAX_XML_DEPTH);
  if (problem) throw new XmlRefused(`the XML is not well-formed: ${problem}`, "malformed");
  return depth;
}

// Navigation over the parsed tree (element names without prefixes).
export function kids(node: unknown, name: string): XNode[] {
  if (!node || typeof node !== "object") return [];
  const v = (node as XNode)[name];
  if (!Array.isArray(v)) return [];
  return v.map((x) => (typeof x === "object" && x !== null ? (x as XNode) : { "#text": String(x) }));
}

export function all(node: unknown, ...path: string[]): XNode[] {
  let cur: XNode[] = node ? [node as XNode] : [];
  for (const p of path) cur = cur.flatMap((n) => kids(n, p));
  return cur;
}

export function first(node: unknown, ...path: string[]): XNode | undefined {
  return all(node, ...path)[0];
}

export function text(node: XNode | undefined): string {
  if (!node) return "";
  const t = node["#text"];
  return t === undefined || t === null ? "" : decodeReferences(String(t)).trim();
}

// The five predefined XML entities and character references are part of XML itself, not of
// a DTD: decoded here, after parsing, as plain text (nothing is ever looked up or fetched).
const PREDEFINED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
export function decodeReferences(s: string): string {
  if (!s.includes("&")) return s;
  return s.replace(/&(amp|lt|gt|quot|apos|#[0-9]{1,7}|#x[0-9a-fA-F]{1,6});/g, (m, name: string) => {
    if (name[0] !== "#") return PREDEFINED[name];
    const cp = name[1] === "x" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return cp > 0 && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff) ? String.fromCodePoint(cp) : m;
  });
}

export function textAt(node: unknown, ...path: string[]): string {
  return text(first(node, ...path));
}

export function attr(node: XNode | undefined, name: string): string {
  const v = node?.[`@_${name}`];
  return v === undefined || v === null ? "" : decodeReferences(String(v)).trim();
}
