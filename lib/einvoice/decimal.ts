// Exact decimal amounts from e-invoice text: "1234.5" -> 12345n at scale 1. Never floats.
export type Dec = { units: bigint; scale: number };

const DECIMAL = /^([+-]?)(\d+)(?:\.(\d+))?$|^([+-]?)\.(\d+)$/;

export function parseDecimal(s: string): Dec | null {
  const m = DECIMAL.exec(s.trim());
  if (!m) return null;
  const sign = m[1] ?? m[4] ?? "";
  const whole = m[2] ?? "0";
  const frac = m[3] ?? m[5] ?? "";
  if (frac.length > 20 || whole.length > 30) return null;
  const units = BigInt(whole + frac) * (sign === "-" ? -1n : 1n);
  return { units, scale: frac.length };
}

export function rescale(d: Dec, scale: number): bigint {
  if (scale >= d.scale) return d.units * 10n ** BigInt(scale - d.scale);
  throw new RangeError("cannot rescale down");
}

export const ZERO: Dec = { units: 0n, scale: 0 };

export function add(...ds: Dec[]): Dec {
  const scale = Math.max(0, ...ds.map((d) => d.scale));
  return { units: ds.reduce((s, d) => s + rescale(d, scale), 0n), scale };
}

export function neg(d: Dec): Dec {
  return { units: -d.units, scale: d.scale };
}

export function eq(a: Dec, b: Dec): boolean {
  const scale = Math.max(a.scale, b.scale);
  return rescale(a, scale) === rescale(b, scale);
}

export function format(d: Dec): string {
  const neg = d.units < 0n;
  const s = (neg ? -d.units : d.units).toString().padStart(d.scale + 1, "0");
  const out = d.scale ? `${s.slice(0, -d.scale)}.${s.slice(-d.scale)}` : s;
  return neg ? `-${out}` : out;
}

// Minor units at `digits` decimals, or null when the amount has non-zero digits beyond them.
export function toMinor(d: Dec, digits: number): bigint | null {
  if (d.scale <= digits) return rescale(d, digits);
  const f = 10n ** BigInt(d.scale - digits);
  if (d.units % f !== 0n) return null;
  return d.units / f;
}
