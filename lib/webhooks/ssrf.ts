import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

// SSRF guard for webhook destinations. A destination is allowed only when every A/AAAA
// record of its host is an ordinary public unicast address: loopback, private, link-local
// (169.254.169.254 metadata included), unique-local (fd00:ec2::254 included), unspecified,
// multicast, broadcast, carrier-grade NAT, reserved/documentation ranges, and every IPv6
// address outside global unicast (IPv4-mapped and -compatible, NAT64, 6to4, Teredo...) are
// refused. WEBHOOK_ALLOW_PRIVATE_NETWORKS=true
// switches the refusal off (local development, tests).
//
// At delivery the connection is made to the address that was checked (see send.ts), so a
// DNS answer that changes between the check and the connect cannot redirect the request.

export type ResolvedAddress = { address: string; family: 4 | 6 };

export class DestinationRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DestinationRefused";
  }
}

export class ResolutionFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ResolutionFailed";
  }
}

// The range name of a refused address, or undefined when the address is public unicast.
// IPv4: ipaddr.js's range must be "unicast". IPv6: only global unicast is allowed — inside
// 2000::/3 and of range "unicast" — so every other form is refused whatever it embeds:
// IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d, which ipaddr.js calls unicast),
// NAT64 (64:ff9b::/96, 64:ff9b:1::/48), 6to4, Teredo, ORCHID, documentation, discard,
// unique-local, link-local, site-local, multicast, loopback and unspecified (docs/security.md).
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR("2000::/3");

export function refusedRange(address: string): string | undefined {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return "unparseable";
  }
  const range = parsed.range();
  if (parsed.kind() === "ipv6") {
    if (range !== "unicast") return range;
    return (parsed as ipaddr.IPv6).match(GLOBAL_UNICAST_V6 as [ipaddr.IPv6, number]) ? undefined : "not global unicast (e.g. IPv4-compatible)";
  }
  return range === "unicast" ? undefined : range;
}

// The URL's host without IPv6 brackets.
export function hostOf(url: URL): string {
  return url.hostname.startsWith("[") && url.hostname.endsWith("]") ? url.hostname.slice(1, -1) : url.hostname;
}

const isLocalhostName = (host: string) => {
  const h = host.toLowerCase().replace(/\.$/, "");
  return h === "localhost" || h.endsWith(".localhost");
};

// Every address the host resolves to (A and AAAA), within `timeoutMs`.
export async function resolveHost(host: string, timeoutMs: number, signal?: AbortSignal): Promise<ResolvedAddress[]> {
  const family = isIP(host);
  if (family === 4 || family === 6) return [{ address: host, family }];
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ResolutionFailed(`DNS lookup of ${host} timed out`)), timeoutMs);
    signal?.addEventListener("abort", () => reject(new ResolutionFailed(`DNS lookup of ${host} aborted`)), { once: true });
  });
  try {
    const found = await Promise.race([lookup(host, { all: true, verbatim: true }), timeout]);
    if (found.length === 0) throw new ResolutionFailed(`${host} has no A/AAAA record`);
    return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
  } catch (e) {
    if (e instanceof ResolutionFailed) throw e;
    throw new ResolutionFailed(`DNS lookup of ${host} failed (${(e as NodeJS.ErrnoException).code ?? "error"})`);
  } finally {
    clearTimeout(timer);
  }
}

// Throws DestinationRefused when any address is not public.
export function assertPublic(host: string, addresses: ResolvedAddress[]): void {
  if (isLocalhostName(host)) throw new DestinationRefused(`${host} is a loopback name`);
  for (const a of addresses) {
    const range = refusedRange(a.address);
    if (range) throw new DestinationRefused(`${host} resolves to ${a.address} (${range}), which is not a public address`);
  }
}

// Resolves and checks a destination; returns the checked addresses to connect to.
export async function checkDestination(url: URL, opts: { allowPrivate: boolean; timeoutMs: number; signal?: AbortSignal }): Promise<ResolvedAddress[]> {
  const host = hostOf(url);
  if (!opts.allowPrivate && isLocalhostName(host)) throw new DestinationRefused(`${host} is a loopback name`);
  const addresses = await resolveHost(host, opts.timeoutMs, opts.signal);
  if (!opts.allowPrivate) assertPublic(host, addresses);
  return addresses;
}
