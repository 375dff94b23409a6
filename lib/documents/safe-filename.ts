// The stored name: the last path segment, without control or path characters, at most
// 200 characters; "document" when nothing is left.
export function safeFilename(name: string): string {
  const base = (name.split(/[\\/]/).pop() ?? "")
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what a file name must not keep
    .replace(/[\u0000-\u001f\u007f"<>|:*?]/g, "_")
    .trim()
    .replace(/^\.+/, "");
  return (base || "document").slice(-200);
}
