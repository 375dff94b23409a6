// The address a request came from, for the per-address limits (sign-in throttling,
// lib/auth/count-password-check.ts). Only the socket knows who connected, and every X-Forwarded-For
// entry a client sends is its own to choose: taking the left-most one let any client pick a
// fresh address per request and so escape every per-address limit.
//
// So the server process appends its socket's peer to X-Forwarded-For before any route
// handler runs, as a proxy does, on both of its paths (the direct API path,
// lib/http/api-server.ts, and Next.js's, scripts/server.mjs: Next.js itself would fill the
// header in only when absent, keeping a client's value). The right-most entry is then always
// the peer, and each trusted reverse proxy in front (TRUST_PROXY_HOPS, lib/env.ts) appended
// the address it saw: the client is the entry TRUST_PROXY_HOPS places left of the right-most.
// A shorter chain (a request that did not pass every proxy) gives its left-most entry, as
// Express's `trust proxy` does. X-Real-IP is never read: a proxy that sets it may leave a
// client's own value in place, and a single rule is easier to configure right.
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
