import "@/lib/schemas/zod-setup";
import { z } from "zod";

// Shared wire types. Money is a string of minor units, parsed to bigint at the edge.
export const MAX_MINOR = 9223372036854775807n;

export const ZMinor = z
  .string()
  .regex(/^[1-9][0-9]*$/, "must be a positive integer string of minor units")
  // zod 4 runs refinements even after the regex failed: only parse what matched
  .refine((s) => !/^[1-9][0-9]*$/.test(s) || (s.length <= 19 && BigInt(s) <= MAX_MINOR), "must be at most 9223372036854775807")
  .meta({ description: "Amount in minor units as a string", example: "125000" });

// Computed amounts may be "0".
export const ZMinorOut = z
  .string()
  .regex(/^(0|[1-9][0-9]*)$/)
  .meta({ description: "Non-negative amount in minor units", example: "0" });

export const CURRENCIES = ["CAD", "USD", "EUR", "GBP", "JPY", "AUD", "CHF"] as const;
export const ZCurrency = z.enum(CURRENCIES);

// The years a date the service accepts may carry (the bank-statement parsers read dates in
// the same range, lib/bank-statements/text.ts). Without a bound, `0000-01-01` reaches
// PostgreSQL, which has no year 0 (SQLSTATE 22008, a 500), and `9999-12-31` plus due days
// leaves the years 0000-9999 that lib/obligations/terms.ts addDays can write (a 500 too).
// Date arithmetic on accepted dates stays representable: the largest addition is a term's
// `due_days` (at most MAX_DUE_DAYS = 36500, lib/schemas/obligations.ts) on a `trigger_date`
// or `satisfied_on`, and 2999-12-31 + 36500 days = 3099-12-07 < 10000-01-01; the smallest
// result is a day before 1900-01-01 (lib/obligations/evaluate.ts). lib/obligations/terms.test.ts
// checks the sum.
export const MIN_DATE_YEAR = 1900;
export const MAX_DATE_YEAR = 2999;
const DATE_RANGE_MESSAGE = `must be a date from ${MIN_DATE_YEAR}-01-01 to ${MAX_DATE_YEAR}-12-31`;

// A `YYYY-MM-DD` calendar date, any year 0000-9999: only for computed dates that are
// ignored on input (a term's `payable_on` may lie past MAX_DATE_YEAR, see above).
const isoDate = () => z.iso.date({ message: "must be a calendar date YYYY-MM-DD" });
export const ZDateAnyYear = isoDate().meta({ example: "2026-12-31" });
export const ZDate = isoDate()
  // zod 4 runs refinements even after the format failed: only judge the year of a match
  .refine((s) => {
    const y = /^(\d{4})-\d{2}-\d{2}$/.exec(s);
    return !y || (Number(y[1]) >= MIN_DATE_YEAR && Number(y[1]) <= MAX_DATE_YEAR);
  }, DATE_RANGE_MESSAGE)
  .meta({ example: "2026-12-31" });
export const ZDateOrEmpty = z.union([ZDate, z.literal("")]).meta({ description: 'Calendar date, or "" when not set' });
export const ZTimestamp = z.string().meta({ format: "date-time", example: "2026-11-22T10:00:00.000Z" });

export const ZUuid = z.uuid({ message: "must be a UUID" });

export const ZIdParams = z.strictObject({ id: ZUuid });

export const ZPageQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});

export const ZError = z
  .strictObject({ error: z.strictObject({ code: z.string(), message: z.string() }) })
  .meta({ description: "Every error response: a stable code and a human-readable message" });

export const listEnvelope = <T extends z.ZodType>(item: T) => z.strictObject({ items: z.array(item), limit: z.number().int(), offset: z.number().int() });

export const ZExternalReference = z.strictObject({ namespace: z.string().min(1).max(200), id: z.string().min(1).max(200) });

// Dates <-> the database (DATE columns come back as UTC midnight).
export const toDate = (s: string): Date => new Date(`${s}T00:00:00.000Z`);
export const fromDate = (d: Date | null | undefined): string => (d ? d.toISOString().slice(0, 10) : "");
export const todayUtc = (): string => new Date().toISOString().slice(0, 10);
