import { XMLParser } from "fast-xml-parser";

// The one XML parser configuration of the service (bank statements and e-invoices): no
// entity is ever expanded (processEntities off; callers refuse any DOCTYPE or ENTITY
// declaration before parsing, so no DTD is read or resolved), values stay strings (amounts
// keep their exact decimal text), namespace prefixes are dropped (formats use well-known
// prefixes inconsistently), nesting is bounded, and every element is an array, so a
// repeated element never changes the shape of the tree.
export const MAX_XML_DEPTH = 64;

export const safeXmlParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  removeNSPrefix: true,
  processEntities: false,
  htmlEntities: false,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  isArray: (_name: string, _path: unknown, _leaf: boolean, isAttribute: boolean) => !isAttribute,
  maxNestedTags: MAX_XML_DEPTH,
} as ConstructorParameters<typeof XMLParser>[0]);
