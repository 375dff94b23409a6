import { createHash } from "node:crypto";
import { buildOpenApiDocument } from "@/lib/openapi/document";
import { notServed } from "@/lib/http/not-served";

// The document never changes while the process runs: built and hashed once, then served
// from memory with a strong ETag; a matching If-None-Match gets an empty 304.
let cached: { body: string; etag: string } | undefined;

function documentOnce() {
  if (!cached) {
    const body = JSON.stringify(buildOpenApiDocument(), null, 2);
    cached = { body, etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 32)}"` };
  }
  return cached;
}

// If-None-Match is a list of entity tags (or *); weak tags match too (weak comparison, RFC 9110 13.1.2).
function matches(header: string | null, etag: string): boolean {
  if (header === null) return false;
  if (header.trim() === "*") return true;
  return header.split(",").some((t) => t.trim().replace(/^W\//, "") === etag);
}

// GET /openapi.json – the OpenAPI 3.1 document, generated from the operation declarations
export function GET(req: Request): Response {
  const { body, etag } = documentOnce();
  const headers = { etag, "cache-control": "public, max-age=60" };
  if (matches(req.headers.get("if-none-match"), etag)) return new Response(null, { status: 304, headers });
  return new Response(body, { headers: { ...headers, "content-type": "application/json; charset=utf-8" } });
}

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { POST, PUT, PATCH, DELETE } = notServed("GET");
