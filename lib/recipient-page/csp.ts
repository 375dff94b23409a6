import { csp } from "@/lib/http/dashboard-csp";

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

// Styles only by the nonce, no workers.
export const recipientCsp = (nonce: string, https: boolean): string => csp(nonce, https, { style: `'nonce-${nonce}'`, worker: "'none'" });
