import { NextResponse, type NextRequest } from "next/server";
import { errorBody } from "@/lib/errors";

// Next.js 16 Proxy (formerly middleware), only for /api/* paths holding a percent sign (the
// matcher below): every other request goes straight to its route handler, because a proxy
// pass costs about a millisecond of CPU per request (docs/benchmarks.md, step 7). Methods a
// path does not serve are answered by the route files themselves (lib/http/not-served.ts).
// (The hosted payer page /r/* sets its own Content-Security-Policy with a per-response
// nonce: app/r/[request]/route.ts.)
//
// Next.js decodes path parameters before any route handler runs and answers a malformed
// percent-encoding (`/obligations/%`, `%C3%28`) with a bare 500, and a segment decoding to
// "." or ".." with an empty answer. Such a path names no resource: the contract's 404
// envelope instead. Without a percent sign nothing is decoded, so nothing needs guarding.
export function proxy(request: NextRequest) {
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
  return NextResponse.next();
}

const notFound = () =>
  NextResponse.json(errorBody("not_found", "no such endpoint"), {
    status: 404,
    headers: { "x-request-id": crypto.randomUUID(), "cache-control": "no-store" },
  });

export const config = {
  // Next.js matches the raw and the decoded path; only a raw path can hold a "%".
  matcher: ["/api/(.*%.*)"],
};
