import { readFileSync } from "node:fs";
import path from "node:path";

// The payer page's built assets (scripts/build-recipient.mjs, run by `npm run build` after
// `next build`): the island's entry script, the chunks it imports statically, the inlined
// stylesheet. Read once per server process; the files never change under a running server.
export type RecipientManifest = { entry: string; account?: string; preload: string[]; accountPreload?: string[]; css: string; cssHash: string };

export const ASSET_DIR = path.join(process.cwd(), ".next", "recipient", "assets");
export const ASSET_PATH = "/payer-assets";

let cached: RecipientManifest | null = null;

export function recipientManifest(): RecipientManifest {
  if (!cached) {
    try {
      cached = JSON.parse(readFileSync(path.join(process.cwd(), ".next", "recipient", "manifest.json"), "utf8")) as RecipientManifest;
    } catch {
      throw new Error("The payer page's assets are missing: run `npm run build` (it runs scripts/build-recipient.mjs after next build).");
    }
  }
  return cached;
}

// A file name the build wrote: letters, digits and dashes, a content hash, ".js".
export const isAssetName = (name: string) => /^[A-Za-z0-9-]{1,80}\.js$/.test(name);
