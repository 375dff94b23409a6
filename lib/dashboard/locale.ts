import { headers } from "next/headers";

const FALLBACK = "en-US";

// The reader's locale for amounts and dates: the first language of Accept-Language that
// Intl supports, else en-US. Server components format; islands receive strings.
export async function requestLocale(): Promise<string> {
  const accept = (await headers()).get("accept-language") ?? "";
  return pickLocale(accept);
}

export function pickLocale(acceptLanguage: string): string {
  const tags = acceptLanguage
    .split(",")
    .map((part) => {
      const [tag, ...params] = part.trim().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      return { tag: tag.trim(), q: q ? Number(q.slice(2)) : 1 };
    })
    .filter((t) => t.tag && t.tag !== "*" && Number.isFinite(t.q) && t.q > 0)
    .sort((a, b) => b.q - a.q);
  for (const { tag } of tags) {
    try {
      const [supported] = Intl.NumberFormat.supportedLocalesOf([tag]);
      if (supported) return supported;
    } catch {
      /* malformed tag */
    }
  }
  return FALLBACK;
}
