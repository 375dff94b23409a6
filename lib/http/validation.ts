import type { z } from "zod";
import { AppError } from "@/lib/errors";

// Turns zod issues into one message naming every offending field path.
export function formatIssues(issues: readonly z.core.$ZodIssue[], root = "body"): string {
  return issues
    .map((i) => {
      const path = [root, ...i.path.map(String)].join(".");
      if (i.code === "unrecognized_keys") return i.keys.map((k) => `${path}.${k}: unknown property`).join("; ");
      return `${path}: ${i.message}`;
    })
    .join("; ");
}

export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown, root: string): z.output<S> {
  const r = schema.safeParse(input);
  if (!r.success) throw new AppError("validation_failed", formatIssues(r.error.issues, root));
  return r.data;
}
