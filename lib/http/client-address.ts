// The address a request came from (per-address limits): the entry TRUST_PROXY_HOPS places left
// of the right-most of X-Forwarded-For, whose right-most entry the server process appends
// (its socket's peer). docs/architecture.md, "Why: the client's address from the right of X-Forwarded-For".
export function clientAddress(forwardedFor: string | null, trustedHops: number): string {
  const chain = (forwardedFor ?? "")
    .split(",")
    .map((a) => a.trim())
    .filter((a) => a !== "");
  if (chain.length === 0) return "local";
  return chain[Math.max(0, chain.length - 1 - trustedHops)];
}

// X-Forwarded-For as a route handler receives it: the client's value with the socket's peer
// appended (scripts/server.mjs has the same rule for Next.js's path, which it cannot import).
export function appendPeer(forwardedFor: string | null | undefined, peer: string | undefined): string {
  const address = peer ?? "unknown";
  return forwardedFor?.trim() ? `${forwardedFor}, ${address}` : address;
}
