import { XMLParser } from "fast-xml-parser";

// A minimal, namespace-aware path reader for tests: it reads e-invoice files independently of
// the importer (different parser options, real namespace URIs instead of dropped prefixes).
// Paths are child steps `prefix:local` from the document, e.g.
// `/inv:Invoice/cac:LegalMonetaryTotal/cbc:PayableAmount`, optionally ending in `/@attr`.

export type El = { uri: string; local: string; attrs: Record<string, string>; children: El[]; text: string };

export const NS: Record<string, string> = {
  inv: "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2",
  cn: "urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2",
  cac: "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2",
  cbc: "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2",
  rsm: "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100",
  ram: "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100",
  udt: "urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100",
};

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: "",
  parseTagValue: false,
  processEntities: false,
  trimValues: false,
});

type Raw = Record<string, unknown>;

export function parseDom(xml: string): El {
  const nodes = parser.parse(xml) as Raw[];
  const doc: El = { uri: "", local: "#document", attrs: {}, children: [], text: "" };
  build(nodes, doc, {});
  return doc;
}

function build(nodes: Raw[], parent: El, scope: Record<string, string>): void {
  for (const n of nodes) {
    const name = Object.keys(n).find((k) => k !== ":@")!;
    if (name === "#text") {
      parent.text += String(n[name]);
      continue;
    }
    if (name.startsWith("?") || name === "#comment") continue;
    const attrs = (n[":@"] ?? {}) as Record<string, string>;
    const inner = { ...scope };
    for (const [k, v] of Object.entries(attrs)) {
      if (k === "xmlns") inner[""] = v;
      else if (k.startsWith("xmlns:")) inner[k.slice(6)] = v;
    }
    const [prefix, local] = name.includes(":") ? name.split(":", 2) : ["", name];
    const el: El = { uri: inner[prefix] ?? "", local, attrs, children: [], text: "" };
    parent.children.push(el);
    build(n[name] as Raw[], el, inner);
  }
}

export function select(doc: El, path: string): El[] {
  let cur = [doc];
  for (const step of path.split("/").filter(Boolean)) {
    if (step.startsWith("@")) break;
    const [prefix, local] = step.split(":", 2);
    const uri = NS[prefix];
    if (!uri) throw new Error(`unknown prefix ${prefix}`);
    cur = cur.flatMap((e) => e.children.filter((c) => c.uri === uri && c.local === local));
  }
  return cur;
}

// The string value of the first match ("" when none); `/@name` reads an attribute.
export function value(doc: El, path: string): string {
  const at = /\/@([\w:-]+)$/.exec(path);
  const hit = select(doc, path)[0];
  if (!hit) return "";
  return (at ? (hit.attrs[at[1]] ?? "") : deepText(hit)).trim();
}

function deepText(e: El): string {
  return e.text + e.children.map(deepText).join("");
}
