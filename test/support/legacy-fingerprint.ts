import { createHash } from "node:crypto";

// The idempotency fingerprint as versions before the keyed one stored it: the plain SHA-256 of
// method, path and the body's canonical JSON (keys sorted at every level). Written out again
// here, independently of lib/idempotency, so the tests pin the old format.
export function legacyFingerprint(method: string, path: string, body: unknown): string {
  const canonical = (v: unknown): string => {
    if (v === undefined) return "";
    if (v === null || typeof v !== "object") return JSON.stringify(v);
    if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(",")}}`;
  };
  return createHash("sha256")
    .update(`${method}\n${path}\n${canonical(body)}`)
    .digest("hex");
}
