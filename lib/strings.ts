// Trimming one character from the ends of a string by a scan, not by a regular expression:
// /x+$/ goes over a long run of x once per position when something else follows it
// (quadratic), which on uploaded text stalls the request (docs/security.md, "Uploads and parsers").
export function trimEndChar(s: string, ch: string): string {
  let end = s.length;
  while (end > 0 && s[end - 1] === ch) end--;
  return end === s.length ? s : s.slice(0, end);
}

export function trimChar(s: string, ch: string): string {
  let start = 0;
  while (start < s.length && s[start] === ch) start++;
  return trimEndChar(start ? s.slice(start) : s, ch);
}
