"use client";

import { useRef, useState } from "react";
import { DOCUMENT_KINDS, ZDocumentForm } from "@/lib/schemas/obligations";
import { DOCUMENT_KIND_LABELS } from "@/lib/dashboard/format";
import { btn, field } from "@/components/ui/styles";
import { FeedbackMessage } from "@/components/ui/feedback";
import { useObligationMutation } from "@/components/obligations/obligation-context";
import { Label, FormError } from "@/components/ui/field";

const MAX_BYTES = 10 * 1024 * 1024;

// Upload a document (multipart: expected_version, kind, file). The service sniffs the
// content and refuses active content (415) and files above the limit (413).
export function DocumentUpload() {
  const { run, pending, feedback } = useObligationMutation();
  const [kind, setKind] = useState<(typeof DOCUMENT_KINDS)[number]>("supporting");
  const [error, setError] = useState<string | null>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  return (
    <form
      noValidate
      className="space-y-2"
      aria-label="Upload a document"
      onSubmit={async (e) => {
        e.preventDefault();
        const file = fileRef.current?.files?.[0];
        if (!file) return setError("Choose a file.");
        if (file.size === 0) return setError("The file is empty.");
        if (file.size > MAX_BYTES) return setError("The file is larger than 10 MB.");
        setError(null);
        const r = await run(
          "/documents",
          (v) => {
            const meta = ZDocumentForm.parse({ expected_version: v, kind });
            const form = new FormData();
            form.set("expected_version", String(meta.expected_version));
            if (meta.kind) form.set("kind", meta.kind);
            form.set("file", file, file.name);
            return { form };
          },
          `“${file.name}” uploaded.`,
        );
        if (r.ok && fileRef.current) fileRef.current.value = "";
      }}
    >
      <div className="grid gap-2 sm:grid-cols-[1fr_12rem]">
        <div>
          <Label htmlFor="doc-file">File</Label>
          <input
            id="doc-file"
            ref={fileRef}
            type="file"
            accept=".pdf,.png,.jpg,.jpeg,.webp,.csv,.txt,.xml,application/pdf,image/png,image/jpeg,image/webp,text/csv,text/plain,application/xml"
            aria-describedby="doc-file-hint"
            aria-invalid={!!error}
            className="mt-1 block w-full text-sm file:mr-3 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-medium"
          />
          <p id="doc-file-hint" className={field.hint}>
            PDF, PNG, JPEG, WebP, CSV, text or XML, up to 10 MB.
          </p>
        </div>
        <div>
          <Label htmlFor="doc-kind">Kind</Label>
          <select id="doc-kind" value={kind} onChange={(e) => setKind(e.target.value as typeof kind)} className={field.input}>
            {DOCUMENT_KINDS.map((k) => (
              <option key={k} value={k}>
                {DOCUMENT_KIND_LABELS[k]}
              </option>
            ))}
          </select>
        </div>
      </div>
      <FormError message={error} />
      <button type="submit" className={btn.secondary} disabled={pending}>
        {pending ? "Uploading…" : "Upload"}
      </button>
      <FeedbackMessage feedback={feedback} />
    </form>
  );
}
