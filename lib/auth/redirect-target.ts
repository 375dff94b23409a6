// Where a sign-in may send the browser after it (next-auth's redirect callback): a URL whose
// origin is exactly the service's own, compared as parsed origins — never by string prefix,
// which let `https://host.evil.com` pass for `https://host` — with relative paths resolved
// against the base (so `//evil.com` and `/\evil.com` resolve to another origin and are
// refused). Anything else, or anything unparseable, is the base URL.
export function redirectTarget(url: string, baseUrl: string): string {
  try {
    const base = new URL(baseUrl);
    const target = new URL(url, base);
    return target.origin === base.origin ? target.href : base.href;
  } catch {
    return baseUrl;
  }
}
