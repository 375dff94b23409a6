import { NextResponse, type NextRequest } from "next/server";
import { errorBody } from "@/lib/errors";
import { AUTH_ENDPOINT_CSP, dashboardCsp } from "@/lib/http/dashboard-csp";
import { newNonce } from "@/lib/recipient-page/csp";

// Next.js 16 Proxy (formerly middleware), only for /api/* paths holding a percent sign, the
// dashboard, the sign-in page and next-auth's endpoints (the matcher below): every other
// request goes straight to its route handler, because a proxy pass costs about a millisecond
// of CPU per request (docs/benchmarks.md, step 7); the API's own paths never come here.
// Methods a path does not serve are answered by the route files themselves
// (lib/http/not-served.ts). (The hosted payer page /r/* sets its own Content-Security-Policy
// with a per-response nonce: app/r/[request]/route.ts.)
//
// The dashboard, /login and the invitation and reset pages get a Content-Security-Policy with a fresh nonce
// (lib/http/dashboard-csp.ts): set on the request too, where Next.js reads the nonce for the
// scripts it renders (these pages are rendered per request: they read the session cookie).
//
// Next.js decodes path parameters before any route handler runs and answers a malformed
// percent-encoding (`/obligations/%`, `%C3%28`) with a bare 500, and a segment decoding to
// "." or ".." with an empty answer. Such a path names no resource: the contract's 404
// envelope instead. Without a percent sign nothing is decoded, so nothing needs guarding.
export function proxy(request: NextRequest) {
  const raw = new URL(request.url).pathname;
  if (!raw.startsWith("/api/")) return withNonceCsp(request);
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
  const res = NextResponse.next();
  if (raw.startsWith("/api/auth/")) res.headers.set("content-security-policy", AUTH_ENDPOINT_CSP);
  return res;
}

function withNonceCsp(request: NextRequest) {
  const csp = dashboardCsp(newNonce(), (process.env.PUBLIC_BASE_URL ?? "").startsWith("https:"));
  const headers = new Headers(request.headers);
  headers.set("content-security-policy", csp);
  const res = NextResponse.next({ request: { headers } });
  res.headers.set("content-security-policy", csp);
  return res;
}

const notFound = () =>
  NextResponse.json(errorBody("not_found", "no such endpoint"), {
    status: 404,
    headers: { "x-request-id": crypto.randomUUID(), "cache-control": "no-store" },
  });

export const config = {
  // Next.js matches the raw and the decoded path; only a raw path can hold a "%".
  matcher: ["/api/(.*%.*)", "/api/auth/:path*", "/dashboard", "/dashboard/:path*", "/login", "/invite/:path*", "/password-reset/:path*"],
};
