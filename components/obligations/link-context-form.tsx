"use client";

import { useState } from "react";
import { ZCreateObligationContextLink } from "@/lib/schemas/contexts";
import { parseDecimalToMinor } from "@/lib/money/format";
import { btn, field } from "@/components/ui/styles";
import { FeedbackMessage } from "@/components/ui/feedback";
import { useObligationMutation } from "@/components/obligations/obligation-context";
import { Label, FormError, ChoiceOptions } from "@/components/ui/field";

// POST /obligations/{id}/business-contexts: attach a context (optionally with the part of
// the amount attributed to it).
export function LinkContextForm({ currency, options }: { currency: string; options: { id: string; label: string }[] }) {
  const { run, pending, feedback } = useObligationMutation();
  const [contextId, setContextId] = useState("");
  const [relationship, setRelationship] = useState("");
  const [attributed, setAttributed] = useState("");
  const [error, setError] = useState<string | null>(null);
  if (options.length === 0) return null;
  return (
    <form
      noValidate
      aria-label="Link a business context"
      className="space-y-2"
      onSubmit={async (e) => {
        e.preventDefault();
        if (!contextId) return setError("Choose a context.");
        let attributedMinor: string | undefined;
        if (attributed.trim()) {
          const a = parseDecimalToMinor(attributed, currency);
          if (!a.ok) return setError(`Attributed amount: ${a.message}`);
          attributedMinor = a.minor;
        }
        const draft = {
          context_id: contextId,
          ...(relationship.trim() ? { relationship_type: relationship.trim() } : {}),
          ...(attributedMinor ? { attributed_minor: attributedMinor } : {}),
          expected_version: 1,
        };
        const checked = ZCreateObligationContextLink.safeParse(draft);
        if (!checked.success) return setError(checked.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "));
        setError(null);
        const r = await run("/business-contexts", (v) => ({ body: { ...checked.data, expected_version: v } }), "Context linked.");
        if (r.ok) {
          setContextId("");
          setRelationship("");
          setAttributed("");
        }
      }}
    >
      <div>
        <Label htmlFor="link-context">Link a context</Label>
        <select id="link-context" value={contextId} onChange={(e) => setContextId(e.target.value)} className={field.input}>
          <ChoiceOptions options={options} />
        </select>
      </div>
      <div className="grid gap-2 sm:grid-cols-2 lg:grid-cols-1 xl:grid-cols-2">
        <div>
          <Label htmlFor="link-relationship">Relationship</Label>
          <input id="link-relationship" value={relationship} onChange={(e) => setRelationship(e.target.value)} placeholder="related" className={field.input} />
        </div>
        <div>
          <Label htmlFor="link-attributed">Attributed ({currency})</Label>
          <input
            id="link-attributed"
            inputMode="decimal"
            value={attributed}
            onChange={(e) => setAttributed(e.target.value)}
            placeholder="optional"
            className={field.input}
          />
        </div>
      </div>
      <FormError message={error} />
      <button type="submit" className={btn.secondary} disabled={pending}>
        Link context
      </button>
      <FeedbackMessage feedback={feedback} />
    </form>
  );
}
