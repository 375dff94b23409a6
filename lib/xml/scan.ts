// A linear scan of an XML text's tags (comments, CDATA and PIs skipped), run before any
// parser sees the text: the nesting depth, and what no parser should be given. A tag that
// holds a "<" (never XML, not even in an attribute value), an unterminated tag, and a tag
// longer than MAX_TAG_CHARS are refused here, because fast-xml-parser's validator and parser
// take time quadratic in such runs ("<a<a<a…", a tag of a million attributes) to say so.
// indexOf, not a regular expression: a lazy "<a[^>]*?>" goes to the end of the text from
// every "<" of "<a<a<a…" (quadratic). A terminator once not found is not searched again.

// Far above any real tag (namespace declarations included), far below a stall.
export const MAX_TAG_CHARS = 16 * 1024;

// problem and at: what is refused, and where (the index of its "<").
export type XmlScan = { depth: number; problem?: string; at?: number };

// Stops at the first depth above maxDepth (the text is refused then anyway).
export function scanXml(text: string, maxDepth: number): XmlScan {
  let depth = 0;
  let max = 0;
  const missing = new Set<string>();
  const find = (s: string, from: number) => {
    if (missing.has(s)) return -1;
    const at = text.indexOf(s, from);
    if (at < 0) missing.add(s);
    return at;
  };
  for (let lt = text.indexOf("<"); lt >= 0; lt = text.indexOf("<", lt + 1)) {
    const skip = text.startsWith("<!--", lt) ? "-->" : text.startsWith("<![CDATA[", lt) ? "]]>" : text[lt + 1] === "?" ? "?>" : null;
    if (skip) {
      const end = find(skip, lt + 2);
      if (end < 0) return { depth: max, problem: "a comment, CDATA section or processing instruction is not closed", at: lt };
      lt = end + skip.length - 1;
      continue;
    }
    const closing = text[lt + 1] === "/";
    const c = text.charCodeAt(lt + (closing ? 2 : 1));
    if (!((c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95)) continue;
    const gt = find(">", lt);
    if (gt < 0) return { depth: max, problem: "a tag is not closed", at: lt };
    const nextLt = text.indexOf("<", lt + 1);
    if (nextLt >= 0 && nextLt < gt) return { depth: max, problem: 'a tag is not closed before the next "<"', at: lt };
    if (gt - lt > MAX_TAG_CHARS) return { depth: max, problem: `a tag is longer than ${MAX_TAG_CHARS} characters`, at: lt };
    if (closing) depth--;
    else if (text[gt - 1] !== "/") {
      depth++;
      if (depth > max) max = depth;
      if (max > maxDepth) return { depth: max };
    }
    lt = gt;
  }
  return { depth: max };
}
