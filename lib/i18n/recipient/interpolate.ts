// "{issuer} has…" + { issuer: "Acme" } -> "Acme has…" (an unknown name stays as written).
// Its own module: the hosted page's bundle takes it without the catalogues.
export function interpolate(template: string, vars: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) => (k in vars ? String(vars[k]) : m));
}
