// A value the code knows is there (a key it has just put in a map, a column its query never
// leaves empty): the value without a `!` assertion, and a loud error should that ever not hold.
export function present<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) throw new Error(`Internal invariant broken: ${what} missing`);
  return value;
}
