import { StatementError } from "./types";

// For the parsers' tests: the StatementError a call throws (any other outcome fails the test).
export function errorOf(fn: () => unknown): StatementError {
  try {
    fn();
  } catch (e) {
    if (e instanceof StatementError) return e;
    throw e;
  }
  throw new Error("expected a StatementError");
}
