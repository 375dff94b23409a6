import { SECURITY_HEADERS } from "./lib/http/security-headers.mjs";

/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Native and WASM packages stay outside the server bundle.
  serverExternalPackages: ["@node-rs/argon2", "@electric-sql/pglite", "@electric-sql/pglite-socket", "pg", "pino", "file-type"],
  typedRoutes: false,
  // proxy.ts runs for /api/*, and Next.js cuts request bodies beyond this size before the
  // route handler sees them (a cut multipart body parses as garbage: 400 instead of 413).
  // The handlers bound uploads themselves (MAX_UPLOAD_BYTES, 10 MiB, answered with 413), so
  // the proxy must let a little more through.
  experimental: { proxyClientMaxBodySize: "12mb" },
  async headers() {
    return [
      {
        source: "/:path*",
        headers: SECURITY_HEADERS,
      },
      {
        source: "/r/:path*",
        headers: [
          { key: "Referrer-Policy", value: "no-referrer" },
          { key: "Cache-Control", value: "no-store" },
          { key: "X-Robots-Tag", value: "noindex, nofollow" },
        ],
      },
    ];
  },
};

export default nextConfig;
