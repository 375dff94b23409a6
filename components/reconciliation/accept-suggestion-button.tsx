"use client";

import { useId, useState } from "react";
import { useRouter } from "next/navigation";
import { Label } from "@/components/ui/field";
import { FeedbackMessage } from "@/components/ui/feedback";
import { btn, field } from "@/components/ui/styles";
import { useMutation } from "@/components/ui/use-mutation";
import { useAnnounce } from "@/components/reconciliation/announcer";

// POST /payments/{id}/suggestions/{suggestion}/accept: all allocations of the suggestion at
// once. A 409 (an obligation moved, or the suggestion is no longer among the current ones)
// changes nothing; the page is re-read so the row shows what is true now.
// `shortBy` (words, e.g. "€12.00"): the payment leaves that much of the obligations open;
// the clerk chooses what the rest is (docs/obligations.md, Lifecycle settle_remainder) or leaves
// it open (sent as `settle_remainder: null`, so the organization's tolerance does not credit it
// either); `toleranceKind`: the credit the tolerance makes of it, preselected.
const REMAINDERS = [
  ["", "Leave it open"],
  ["bank_fee", "Bank fee"],
  ["discount", "Discount"],
  ["write_off", "Write it off"],
] as const;

export function AcceptSuggestionButton({
  paymentId,
  suggestionId,
  description,
  shortBy,
  toleranceKind,
}: {
  paymentId: string;
  suggestionId: string;
  description: string;
  shortBy?: string;
  toleranceKind?: "bank_fee" | "discount";
}) {
  const router = useRouter();
  const { submit, pending, feedback } = useMutation();
  const announce = useAnnounce();
  const id = useId();
  const [remainder, setRemainder] = useState<string>(toleranceKind ?? "");
  const label = REMAINDERS.find(([k]) => k === remainder)?.[1] ?? "";
  return (
    <div className="space-y-2">
      {shortBy && (
        <div>
          <Label htmlFor={`${id}-rest`}>{`The payment is ${shortBy} short. The rest is:`}</Label>
          {toleranceKind && (
            <p className="text-sm text-slate-600">
              Within your tolerance: credited as a {toleranceKind === "bank_fee" ? "bank fee" : "discount"} unless you choose otherwise.
            </p>
          )}
          <select id={`${id}-rest`} value={remainder} onChange={(e) => setRemainder(e.target.value)} className={`${field.input} w-auto`}>
            {REMAINDERS.map(([k, l]) => (
              <option key={k} value={k}>
                {l}
              </option>
            ))}
          </select>
        </div>
      )}
      <button
        type="button"
        className={btn.primary}
        disabled={pending}
        aria-label={`Accept: ${description}`}
        onClick={async () => {
          const r = await submit({
            path: `/payments/${paymentId}/suggestions/${encodeURIComponent(suggestionId)}/accept`,
            body: remainder
              ? { settle_remainder: { kind: remainder, reason: `${label}: short payment of ${shortBy}` } }
              : shortBy
                ? { settle_remainder: null }
                : {},
            // Inside an Announcer the confirmation is said above the list, where it survives the row.
            success: announce ? undefined : "Accepted: the allocation is recorded.",
            describe: (e) =>
              e.code === "suggestion_stale"
                ? "This suggestion is no longer current: the payment or an obligation changed. The row now shows the latest state; nothing was allocated."
                : e.code === "version_conflict"
                  ? "An obligation changed since the suggestion was made. The row now shows the latest state; nothing was allocated."
                  : undefined,
          });
          if (r.ok) announce?.(`Accepted: ${description}.`);
          else announce?.("");
          if (!r.ok && r.error.code === "suggestion_stale") router.refresh();
        }}
      >
        {pending ? "Accepting…" : "Accept"}
      </button>
      <FeedbackMessage feedback={feedback} />
    </div>
  );
}
