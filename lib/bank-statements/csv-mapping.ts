// The `csv_mapping` form field of POST /bank-statements: how to read a bank's CSV export.

import { z } from "zod";

// A column by its header text (matched case-insensitively, surrounding spaces ignored) or by
// its 0-based position.
export const ZCsvColumn = z
  .union([z.string().trim().min(1).max(100), z.number().int().min(0).max(999)])
  .meta({ description: "Column header text (case-insensitive) or 0-based column index" });

export const CSV_DATE_FORMATS = ["YYYY-MM-DD", "DD.MM.YYYY", "DD.MM.YY", "DD/MM/YYYY", "MM/DD/YYYY", "DD-MM-YYYY", "YYYY/MM/DD", "YYYYMMDD"] as const;

export const ZCsvMapping = z
  .strictObject({
    date: ZCsvColumn.meta({ description: "Booking date column" }),
    value_date: ZCsvColumn.optional().meta({ description: "Value date column" }),
    amount: ZCsvColumn.optional().meta({ description: "Signed amount column (negative = money paid out)" }),
    debit: ZCsvColumn.optional().meta({ description: "Column of amounts paid out (instead of `amount`)" }),
    credit: ZCsvColumn.optional().meta({ description: "Column of amounts received (instead of `amount`)" }),
    credit_debit_indicator: ZCsvColumn.optional().meta({
      description: "Column telling the direction of an unsigned `amount` (C/D, H/S, Credit/Debit, Bij/Af, Haben/Soll)",
    }),
    currency: ZCsvColumn.optional().meta({ description: "Currency column" }),
    fixed_currency: z
      .string()
      .regex(/^[A-Z]{3}$/)
      .optional()
      .meta({ description: "ISO 4217 currency of every row, when the file has no currency column" }),
    counterparty_name: ZCsvColumn.optional(),
    counterparty_account: ZCsvColumn.optional(),
    remittance: z
      .union([ZCsvColumn, z.array(ZCsvColumn).min(1).max(10)])
      .optional()
      .meta({
        description: "Remittance text column(s); several are joined with spaces",
      }),
    bank_reference: ZCsvColumn.optional().meta({ description: "The bank's unique transaction reference, when the export has one" }),
    account: z.string().trim().min(1).max(60).optional().meta({ description: "IBAN or account id of the statement's account" }),
    decimal_separator: z.enum([".", ","]).optional().meta({ description: "Guessed from the amounts when omitted" }),
    date_format: z.enum(CSV_DATE_FORMATS).optional().meta({ description: "Guessed from the dates when omitted" }),
    header_row: z.number().int().min(0).max(100).optional().meta({
      description: "1-based line number of the header row (0: no header, columns by index); found automatically when omitted",
    }),
    delimiter: z.enum([",", ";", "\t", "|"]).optional().meta({ description: "Sniffed when omitted" }),
  })
  .refine((m) => m.amount !== undefined || m.debit !== undefined || m.credit !== undefined, {
    message: "Set `amount`, or `debit` and/or `credit`",
    path: ["amount"],
  })
  .refine((m) => !(m.amount !== undefined && (m.debit !== undefined || m.credit !== undefined)), {
    message: "Set either `amount` or `debit`/`credit`, not both",
    path: ["amount"],
  })
  .refine((m) => !(m.currency !== undefined && m.fixed_currency !== undefined), {
    message: "Set either `currency` or `fixed_currency`, not both",
    path: ["fixed_currency"],
  })
  .refine((m) => m.header_row !== 0 || [m.date, m.amount, m.debit, m.credit].every((c) => c === undefined || typeof c === "number"), {
    message: "Without a header row (header_row 0) columns must be given by index",
    path: ["header_row"],
  });

export type TCsvMapping = z.infer<typeof ZCsvMapping>;
