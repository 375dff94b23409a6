import { NextResponse, type NextRequest } from "next/server";
import { errorBody, type ErrorCode } from "@/lib/errors";
import { ALL_OPERATIONS } from "@/lib/operations";

// Next.js 16 Proxy (formerly middleware), only for the hosted recipient page /r/*.
// A strict Content-Security-Policy with a fresh nonce per request: Next.js reads the
// nonce from the request's CSP header and puts it on its own (inline and bundle) scripts;
// 'strict-dynamic' lets those load the page's chunks; nothing else may run, no other
// origin is contacted (connect-src 'self'), the page cannot be framed, no <base>, no
// plugins, forms post only to us. The page is dynamically rendered (app/r/[request]).
// The bearer token lives in the URL fragment, which never reaches the server; the
// headers below keep the page out of caches, referrers and search indexes as well.
export function proxy(request: NextRequest) {
  if (request.nextUrl.pathname.startsWith("/api/")) return apiPath(request);
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  const nonce = btoa(String.fromCharCode(...bytes));
  const https = (request.headers.get("x-forwarded-proto")?.split(",")[0].trim() ?? request.nextUrl.protocol.replace(":", "")) === "https";
  const csp = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${process.env.NODE_ENV === "development" ? " 'unsafe-eval'" : ""}`,
    `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "manifest-src 'self'",
    "worker-src 'none'",
    ...(https ? ["upgrade-insecure-requests"] : []),
  ].join("; ");

  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("content-security-policy", csp);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("content-security-policy", csp);
  response.headers.set("referrer-policy", "no-referrer");
  response.headers.set("cache-control", "no-store");
  response.headers.set("x-robots-tag", "noindex, nofollow");
  return response;
}

// Under /api the proxy only guards the path: Next.js decodes path parameters before any
// route handler runs and answers a malformed percent-encoding (`/obligations/%`, `%C3%28`)
// with a bare 500, and a segment decoding to "." or ".." with an empty answer. Such a path
// names no resource: the contract's 404 envelope instead.
function apiPath(request: NextRequest) {
  const raw = new URL(request.url).pathname;
  for (const segment of raw.split("/")) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return notFound();
    }
    // biome-ignore lint/suspicious/noControlCharactersInRegex: a control character decoded from a path segment is refused
    if (segment !== decoded && (decoded === "." || decoded === ".." || /[\u0000-\u001f\u007f]/.test(decoded))) return notFound();
  }
  // A path of a route that does not serve this method would be Next.js's bare 405 with an
  // empty body (e.g. `/payments/%2e/allocations`, normalized to `/payments/allocations`).
  const method = request.method === "HEAD" ? "GET" : request.method;
  if (method !== "OPTIONS" && raw.startsWith("/api/v1/")) {
    const rest = raw.slice("/api/v1".length);
    const methods = rest === "/openapi.json" ? ["GET"] : ROUTES.filter((r) => r.pattern.test(rest)).map((r) => r.method);
    if (methods.length > 0 && !methods.includes(method)) {
      return envelope(405, "method_not_allowed", `${request.method} is not allowed here (${[...new Set(methods)].join(", ")})`, {
        allow: [...new Set(methods)].join(", "),
      });
    }
  }
  return NextResponse.next();
}

const ROUTES = ALL_OPERATIONS.map((op) => ({
  method: op.method as string,
  pattern: new RegExp(`^${op.path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{\w+\}/g, "[^/]+")}/?$`),
}));

const envelope = (status: number, code: ErrorCode, message: string, headers: Record<string, string> = {}) =>
  NextResponse.json(errorBody(code, message), {
    status,
    headers: { ...headers, "x-request-id": crypto.randomUUID(), "cache-control": "no-store" },
  });
const notFound = () => envelope(404, "not_found", "no such endpoint");

export const config = {
  matcher: ["/r/:path*", "/api/:path*"],
};
