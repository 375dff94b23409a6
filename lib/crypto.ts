import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { appSecret } from "@/lib/env";

export const sha256Hex = (s: string | Buffer): string => createHash("sha256").update(s).digest("hex");

export const randomToken = (bytes = 32): string => randomBytes(bytes).toString("base64url");

// Keyed derivation under APP_SECRET: used for hosted-link tokens, so the database alone
// can never produce a working link.
export const hmacBase64Url = (purpose: string, message: string): string =>
  createHmac("sha256", `${purpose}:${appSecret()}`).update(message).digest("base64url");

export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}

// Secrets the service must use later (webhook signing secrets) are stored encrypted
// with AES-256-GCM under a key derived from APP_SECRET.
const encKey = () => createHash("sha256").update(`secret-box:${appSecret()}`).digest();

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
