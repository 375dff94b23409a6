// The Content-Security-Policy of the hosted payer page: a fresh nonce per response on its
// one inline stylesheet, its module script and the chunks it preloads; 'strict-dynamic'
// lets that script import its own lazy chunks (they inherit the nonce) and nothing else
// runs. No other origin is contacted (connect-src 'self'), the page cannot be framed, no
// <base>, no plugins, no workers, forms post only to us.
export function newNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}

export function recipientCsp(nonce: string, https: boolean): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`,
    `style-src 'nonce-${nonce}'`,
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "manifest-src 'self'",
    "worker-src 'none'",
    ...(https ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
}
