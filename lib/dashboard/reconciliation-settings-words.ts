import type { TReconciliationSettings } from "@/lib/schemas/reconciliation";

// What the reconciliation settings will do, in the words the Settings section of the
// reconciliation page shows (the server page and the form's live preview share them).
export function settingsInWords(s: Pick<TReconciliationSettings, "auto_allocate" | "tolerance">): string[] {
  const out: string[] = [];
  if (s.auto_allocate === "reference_only")
    out.push(
      "At import, a payment is allocated without you only when it carries the RF payment reference of exactly one open obligation. Everything else waits here with its suggestions.",
    );
  else
    out.push(
      "At import, a payment is allocated without you when it carries the RF payment reference of exactly one open obligation, and also when it names one open obligation's invoice number or reference as a whole word (other separators, upper or lower case and missing leading zeros are fine) and pays exactly what is due or outstanding in the right currency.",
      "A shortened, prefix-less or mistyped invoice number, a different amount, or a transfer that names several open obligations still waits for you.",
    );
  if (s.tolerance) {
    const amount = `${(BigInt(s.tolerance.max_minor) / 100n).toString()}.${(BigInt(s.tolerance.max_minor) % 100n).toString().padStart(2, "0")}`;
    const bp = s.tolerance.max_basis_points;
    const percent = `${Math.trunc(bp / 100)}${
      bp % 100
        ? `.${String(bp % 100)
            .padStart(2, "0")
            .replace(/0$/, "")}`
        : ""
    } %`;
    const kind = s.tolerance.kind === "bank_fee" ? "a bank fee" : "an early-payment discount";
    out.push(
      `A payment short by at most ${amount} (in the payment's currency) and at most ${percent} of what is owed counts as paying it; the rest is to be settled as ${kind}. Until credits can be recorded here, such a payment is not allocated by itself: its suggestion names the shortfall and waits for you.`,
    );
  } else out.push("No tolerance: a payment that is short leaves the rest open.");
  return out;
}
