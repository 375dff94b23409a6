import { createCipheriv, createHash, randomBytes } from "node:crypto";
import { deflateRawSync } from "node:zlib";
import { appSecret } from "@/lib/env";

// A `v2` box as builds before migration 0018 sealed every stored idempotent response
// (lib/crypto.ts): the text's UTF-8 deflated (raw, level 1, 4 KiB window), then AES-256-GCM
// under SHA-256("secret-box:" + APP_SECRET), written as v2.<iv>.<tag>.<ciphertext> in
// base64url. Rows written that way stay readable after the upgrade.
export function sealDeflated(plain: string): string {
  const key = createHash("sha256").update(`secret-box:${appSecret()}`).digest();
  const iv = randomBytes(12);
  const c = createCipheriv("aes-256-gcm", key, iv);
  const ct = Buffer.concat([c.update(deflateRawSync(plain, { level: 1, windowBits: 12, memLevel: 5 })), c.final()]);
  return ["v2", iv.toString("base64url"), c.getAuthTag().toString("base64url"), ct.toString("base64url")].join(".");
}
