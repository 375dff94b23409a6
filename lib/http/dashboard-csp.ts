// The dashboard's and sign-in page's Content-Security-Policy (proxy.ts, a fresh nonce per
// response): scripts only with the nonce, inline styles allowed. docs/security.md, "Content-Security-Policy".
export const dashboardCsp = (nonce: string, https: boolean): string => csp(nonce, https, { style: "'self' 'unsafe-inline'", worker: "'self' blob:" });

// The policy both pages share; they differ in where styles and workers may come from.
export function csp(nonce: string, https: boolean, differ: { style: string; worker: string }): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`,
    `style-src ${differ.style}`,
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "manifest-src 'self'",
    `worker-src ${differ.worker}`,
    ...(https ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
}

// next-auth's endpoints (/api/auth/*) answer with redirects and JSON only (every page of its
// own goes to /login): nothing there may run or load anything.
export const AUTH_ENDPOINT_CSP = "default-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
