import { readFile } from "node:fs/promises";
import path from "node:path";
import { ASSET_DIR, isAssetName } from "@/lib/recipient-page/assets";

// GET /payer-assets/{file} – the payer page's script bundle and its chunks
// (scripts/build-recipient.mjs). Every name carries its content's hash, so a file never
// changes under its name: cached by browsers and proxies for a year, immutable.
export const dynamic = "force-dynamic";

const cache = new Map<string, Buffer>();

export async function GET(_request: Request, { params }: { params: Promise<{ file: string }> }) {
  const { file } = await params;
  let body = isAssetName(file) ? cache.get(file) : undefined;
  if (!body && isAssetName(file)) {
    body = await readFile(path.join(ASSET_DIR, file)).catch(() => undefined);
    if (body) cache.set(file, body);
  }
  if (!body) return new Response("Not found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });
  return new Response(new Uint8Array(body), {
    status: 200,
    headers: {
      "content-type": "text/javascript; charset=utf-8",
      "cache-control": "public, max-age=31536000, immutable",
      "x-content-type-options": "nosniff",
    },
  });
}
