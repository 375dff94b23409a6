// The one Idempotency-Key generator of the browser code. crypto.randomUUID exists only in
// secure contexts (https or localhost), and the service may be opened over plain http on a
// LAN address; crypto.getRandomValues works everywhere. The result is a version 4 UUID.
export function newIdempotencyKey(): string {
  const b = new Uint8Array(16);
  crypto.getRandomValues(b);
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
