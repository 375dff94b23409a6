import { NextResponse, type NextRequest } from "next/server";
import { errorBody, type ErrorCode } from "@/lib/errors";
import { ALL_OPERATIONS } from "@/lib/operations";

// Next.js 16 Proxy (formerly middleware), only for /api/*. (The hosted payer page /r/* sets
// its own Content-Security-Policy with a per-response nonce: app/r/[request]/route.ts.)
export function proxy(request: NextRequest) {
  return apiPath(request);
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
  matcher: ["/api/:path*"],
};
