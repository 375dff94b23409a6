import { type KeyObject, createCipheriv, createDecipheriv, createHash, createHmac, createSecretKey, randomBytes, timingSafeEqual } from "node:crypto";
import { inflateRawSync } from "node:zlib";
import { appSecret } from "@/lib/env";

export const sha256Hex = (s: string | Buffer): string => createHash("sha256").update(s).digest("hex");

export const randomToken = (bytes = 32): string => randomBytes(bytes).toString("base64url");

// Keyed derivation under APP_SECRET: used for hosted-link tokens, so the database alone
// can never produce a working link.
export const hmacBase64Url = (purpose: string, message: string): string =>
  createHmac(
    "sha256",
    derivedKey(`hmac:${purpose}`, (secret) => Buffer.from(`${purpose}:${secret}`)),
  )
    .update(message)
    .digest("base64url");

// Keys derived from APP_SECRET, made once per purpose (and again if the secret changes): a
// registration seals its stored response and derives a token and a fingerprint, and preparing
// the key each time cost more than the work itself (a 3.5 KB seal: 58 µs vs 19 µs on Node.js 24).
const derived = new Map<string, { secret: string; key: KeyObject }>();
function derivedKey(purpose: string, make: (secret: string) => Buffer): KeyObject {
  const secret = appSecret();
  const hit = derived.get(purpose);
  if (hit?.secret === secret) return hit.key;
  const key = createSecretKey(make(secret));
  derived.set(purpose, { secret, key });
  return key;
}

export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}

// Secrets the service must use later (webhook signing secrets) and stored idempotent
// responses are sealed with AES-256-GCM under a key derived from APP_SECRET.
//   v1.<iv>.<tag>.<ciphertext>   the text's UTF-8: what sealSecret writes
//   v2.<iv>.<tag>.<ciphertext>   the text's UTF-8 deflated first: stored responses written
//                                before migration 0018, still opened. Deflating per response
//                                with node:zlib left each call's zlib stream and its 16 KiB
//                                output buffer for the next mark-compact, which came every
//                                ~3 s under load (docs/benchmarks.md, step 18); the stored
//                                responses now stay in their rows without it (migration 0018).
const encKey = () => derivedKey("aes:secret-box", (secret) => createHash("sha256").update(`secret-box:${secret}`).digest());
// What a v2 box may inflate to: more than any response the service stores (an export is
// streamed, not stored), and the box is authenticated before it is inflated.
const MAX_OPENED_BYTES = 64 << 20;

export function sealSecret(plain: string): string {
  const iv = randomBytes(12);
  const c = createCipheriv("aes-256-gcm", encKey(), iv);
  const ct = Buffer.concat([c.update(plain, "utf8"), c.final()]);
  return ["v1", iv.toString("base64url"), c.getAuthTag().toString("base64url"), ct.toString("base64url")].join(".");
}

const BOX_VERSIONS = new Set(["v1", "v2"]);

// Whether a stored text is a box of sealSecret (of any version), not a plain text of old.
export function isSealed(text: string): boolean {
  const dot = text.indexOf(".");
  return dot > 0 && BOX_VERSIONS.has(text.slice(0, dot));
}

export function openSecret(sealed: string): string {
  const [v, iv, tag, ct] = sealed.split(".");
  if (!BOX_VERSIONS.has(v) || !iv || !tag || ct === undefined) throw new Error("unknown secret format"); // ct is "" for an empty text
  const d = createDecipheriv("aes-256-gcm", encKey(), Buffer.from(iv, "base64url"));
  d.setAuthTag(Buffer.from(tag, "base64url"));
  const bytes = Buffer.concat([d.update(Buffer.from(ct, "base64url")), d.final()]);
  return (v === "v2" ? inflateRawSync(bytes, { maxOutputLength: MAX_OPENED_BYTES }) : bytes).toString("utf8");
}
