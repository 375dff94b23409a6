import { type KeyObject, createCipheriv, createDecipheriv, createHash, createHmac, createSecretKey, randomBytes, timingSafeEqual } from "node:crypto";
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
const encKey = () => derivedKey("aes:secret-box", (secret) => createHash("sha256").update(`secret-box:${secret}`).digest());

export function sealSecret(plain: string): string {
  const iv = randomBytes(12);
  const c = createCipheriv("aes-256-gcm", encKey(), iv);
  const ct = Buffer.concat([c.update(plain, "utf8"), c.final()]);
  return ["v1", iv.toString("base64url"), c.getAuthTag().toString("base64url"), ct.toString("base64url")].join(".");
}

export function openSecret(sealed: string): string {
  const [v, iv, tag, ct] = sealed.split(".");
  if (v !== "v1" || !iv || !tag || ct === undefined) throw new Error("unknown secret format"); // ct is "" for an empty text
  const d = createDecipheriv("aes-256-gcm", encKey(), Buffer.from(iv, "base64url"));
  d.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([d.update(Buffer.from(ct, "base64url")), d.final()]).toString("utf8");
}
