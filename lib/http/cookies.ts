import { publicBaseUrl } from "@/lib/env";

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

// The deployment is served over https: PUBLIC_BASE_URL says so. Cookies are then Secure and
// prefixed whatever a proxy in front says, and responses carry HSTS (scripts/server.mjs).
export const httpsDeployment = (): boolean => publicBaseUrl().startsWith("https:");

// Secure when the deployment is https (PUBLIC_BASE_URL), or when this request came over https
// (directly or behind a TLS proxy that says so in X-Forwarded-Proto).
export function isHttps(req: Request): boolean {
  if (httpsDeployment()) return true;
  const proto = req.headers.get("x-forwarded-proto");
  return (proto ? proto.split(",")[0].trim() : new URL(req.url).protocol.replace(":", "")) === "https";
}

// A request a browser sent from another origin (docs/security.md, "Cross-site requests"):
// Sec-Fetch-Site other than same-origin/none, or an Origin that is neither PUBLIC_BASE_URL's
// nor the request's own (scheme as isHttps, host from the Host header). A request with
// neither header (not a browser's cross-origin request) is not.
export function isCrossOrigin(req: Request): boolean {
  const site = req.headers.get("sec-fetch-site");
  if (site !== null && site !== "same-origin" && site !== "none") return true;
  const origin = req.headers.get("origin");
  if (origin === null) return false;
  const host = req.headers.get("host") ?? new URL(req.url).host;
  const own = [new URL(publicBaseUrl()).origin, `${isHttps(req) ? "https" : "http"}://${host}`.toLowerCase()];
  return !own.includes(origin.toLowerCase());
}
