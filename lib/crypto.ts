import { type KeyObject, createCipheriv, createDecipheriv, createHash, createHmac, createSecretKey, randomBytes, timingSafeEqual } from "node:crypto";
import { deflateRawSync, inflateRawSync } from "node:zlib";
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

// Secrets the service must use later (webhook signing secrets) are stored encrypted
// with AES-256-GCM under a key derived from APP_SECRET.
//   v1.<iv>.<tag>.<ciphertext>   the text's UTF-8
//   v2.<iv>.<tag>.<ciphertext>   the text's UTF-8 deflated first (`compress`): for stored
//                                responses, whose JSON shrinks to ~30 % (a registration's
//                                3.9 KB to 1.1 KB). Ciphertext does not compress, so the
//                                database could not do it; a sealed row under ~2 KB stays
//                                inline instead of going to TOAST (docs/benchmarks.md, step 15).
//   Compressing before sealing lets a box's length depend on its text. That is harmless for
//   stored responses: the secret in one (a hosted link's token) is new in every response, so
//   no one can probe the same secret with texts of their choosing (the CRIME/BREACH pattern).
const encKey = () => derivedKey("aes:secret-box", (secret) => createHash("sha256").update(`secret-box:${secret}`).digest());
// What a v2 box may inflate to: more than any response the service stores (an export is
// streamed, not stored), and the box is authenticated before it is inflated.
const MAX_OPENED_BYTES = 64 << 20;
// Fastest level, and a 4 KiB window with small tables: ~32 KB of zlib state per call instead of
// ~270 KB (the default's), with the same output for texts of a few KB (a registration's 3.9 KB
// deflates to 1,135 bytes either way). Inflating needs no settings: a raw stream made with a
// smaller window inflates with the default one.
const DEFLATE = { level: 1, windowBits: 12, memLevel: 5 };

export function sealSecret(plain: string, options?: { compress?: boolean }): string {
  const iv = randomBytes(12);
  const c = createCipheriv("aes-256-gcm", encKey(), iv);
  const bytes = options?.compress ? deflateRawSync(plain, DEFLATE) : Buffer.from(plain, "utf8");
  const ct = Buffer.concat([c.update(bytes), c.final()]);
  return [options?.compress ? "v2" : "v1", iv.toString("base64url"), c.getAuthTag().toString("base64url"), ct.toString("base64url")].join(".");
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
