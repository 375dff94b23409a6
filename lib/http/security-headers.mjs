// The headers every response carries (next.config.mjs's `headers()` for "/:path*"; the direct
// API path, lib/http/api-server.ts, sets the same ones). Plain JavaScript: next.config.mjs
// imports it before anything is compiled.
export const SECURITY_HEADERS = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
];
