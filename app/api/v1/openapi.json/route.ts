import { buildOpenApiDocument } from "@/lib/openapi/document";

let cached: string | undefined;

// GET /openapi.json – the OpenAPI 3.1 document, generated from the operation declarations
export function GET(): Response {
  cached ??= JSON.stringify(buildOpenApiDocument(), null, 2);
  return new Response(cached, { headers: { "content-type": "application/json; charset=utf-8", "cache-control": "public, max-age=60" } });
}
