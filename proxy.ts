import { NextResponse, type NextRequest } from "next/server";

// Next.js 16 Proxy (formerly middleware), only for the hosted recipient page /r/*.
// A strict Content-Security-Policy with a fresh nonce per request: Next.js reads the
// nonce from the request's CSP header and puts it on its own (inline and bundle) scripts;
// 'strict-dynamic' lets those load the page's chunks; nothing else may run, no other
// origin is contacted (connect-src 'self'), the page cannot be framed, no <base>, no
// plugins, forms post only to us. The page is dynamically rendered (app/r/[request]).
// The bearer token lives in the URL fragment, which never reaches the server; the
// headers below keep the page out of caches, referrers and search indexes as well.
export function proxy(request: NextRequest) {
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

export const config = {
  matcher: ["/r/:path*"],
};
