export function readCookie(req: Request, name: string): string | undefined {
  const header = req.headers.get("cookie");
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const i = part.indexOf("=");
    if (i < 0) continue;
    if (part.slice(0, i).trim() !== name) continue;
    try {
      return decodeURIComponent(part.slice(i + 1).trim());
    } catch {
      return undefined; // a malformed %-escape is no credential (never a 500)
    }
  }
  return undefined;
}

export type CookieOptions = { path: string; maxAgeSeconds?: number; sameSite: "Strict" | "Lax"; secure: boolean };

export function serializeCookie(name: string, value: string, o: CookieOptions): string {
  const parts = [`${name}=${encodeURIComponent(value)}`, `Path=${o.path}`, "HttpOnly", `SameSite=${o.sameSite}`];
  if (o.maxAgeSeconds !== undefined) parts.push(`Max-Age=${Math.max(0, Math.floor(o.maxAgeSeconds))}`);
  if (o.secure) parts.push("Secure");
  return parts.join("; ");
}

// Secure when the service is reached over https (directly or behind a TLS proxy).
export function isHttps(req: Request): boolean {
  const proto = req.headers.get("x-forwarded-proto");
  return (proto ? proto.split(",")[0].trim() : new URL(req.url).protocol.replace(":", "")) === "https";
}
