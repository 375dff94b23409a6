"use client";

import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { z } from "zod";
import { formatDateTime } from "@/lib/format/dates";
import { ZDocumentForm } from "@/lib/schemas/obligations";
import type { TRecipientInvoice } from "@/lib/schemas/recipient";
import { DOCUMENT_KIND_WORDS, fileSize } from "@/components/recipient/present";
import { Card, FieldError, FormAlert, SubmitButton, hintClass, inputClass, labelClass } from "@/components/recipient/ui";

type Locale = readonly string[] | undefined;
export type Upload = (form: FormData, success: string) => Promise<string | null>;

export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
const ACCEPT = ".pdf,.png,.jpg,.jpeg,.webp,.csv,.txt,.xml,application/pdf,image/png,image/jpeg,image/webp,text/csv,text/plain,application/xml";

// The documents of the request (download) and an upload of evidence.
export function Documents({ inv, locale, hrefOf, upload, canUpload }: { inv: TRecipientInvoice; locale: Locale; hrefOf: (id: string) => string; upload: Upload; canUpload: boolean }) {
  return (
    <Card id="documents" title="Documents" description="Files shared with you, and the files you sent.">
      {inv.documents.length === 0 ? (
        <p className="text-sm text-slate-700">No documents yet.</p>
      ) : (
        <ul className="divide-y divide-slate-200">
          {inv.documents.map((d) => (
            <li key={d.id} className="flex flex-wrap items-center justify-between gap-2 py-3">
              <div className="min-w-0">
                <p className="break-all font-medium">{d.filename}</p>
                <p className="text-sm text-slate-700">
                  {DOCUMENT_KIND_WORDS[d.kind] ?? d.kind} · {fileSize(d.size_bytes)} · {d.uploaded_by === "recipient" ? "from you" : `from ${inv.issuer_name || "the sender"}`} · {formatDateTime(d.created_at, locale)}
                </p>
              </div>
              <a href={hrefOf(d.id)} download={d.filename} className="inline-flex min-h-11 items-center rounded-md border border-slate-400 px-3 py-1.5 text-sm font-medium text-brand-700 hover:bg-slate-50" aria-label={`Download ${d.filename}`}>
                Download
              </a>
            </li>
          ))}
        </ul>
      )}
      {canUpload && <UploadForm inv={inv} upload={upload} />}
    </Card>
  );
}

// The API's form fields (expected_version, kind) plus the file, checked here for presence
// and size before the upload; the service sniffs the content again.
const ZUploadForm = ZDocumentForm.pick({ kind: true }).extend({
  file: z
    .custom<FileList>((v) => typeof FileList !== "undefined" && v instanceof FileList, "file")
    .refine((l) => l.length === 1, "file")
    .refine((l) => l.length !== 1 || (l[0].size > 0 && l[0].size <= MAX_UPLOAD_BYTES), "size"),
});

function UploadForm({ inv, upload }: { inv: TRecipientInvoice; upload: Upload }) {
  const id = useId();
  const [error, setError] = useState<string | null>(null);
  const form = useForm<z.input<typeof ZUploadForm>, unknown, z.output<typeof ZUploadForm>>({ resolver: zodResolver(ZUploadForm), defaultValues: { kind: "payment_evidence" } });
  const e = form.formState.errors;
  const onSubmit = form.handleSubmit(async (v) => {
    const fields = ZDocumentForm.parse({ expected_version: inv.version, kind: v.kind });
    const fd = new FormData();
    fd.append("expected_version", String(fields.expected_version));
    if (fields.kind) fd.append("kind", fields.kind);
    fd.append("file", v.file[0], v.file[0].name);
    const err = await upload(fd, `“${v.file[0].name}” was uploaded and shared with ${inv.issuer_name || "the sender"}.`);
    setError(err);
    if (!err) form.reset({ kind: "payment_evidence" });
  });
  return (
    <form noValidate onSubmit={onSubmit} className="mt-5 space-y-4 border-t border-slate-200 pt-5">
      <h3 className="font-semibold">Send a document</h3>
      <div>
        <label htmlFor={`${id}-kind`} className={labelClass}>
          What is it?
        </label>
        <select id={`${id}-kind`} className={`${inputClass} sm:max-w-xs`} {...form.register("kind")}>
          <option value="payment_evidence">Proof of payment</option>
          <option value="supporting">Other supporting document</option>
        </select>
      </div>
      <div>
        <label htmlFor={`${id}-file`} className={labelClass}>
          File
        </label>
        <input
          id={`${id}-file`}
          type="file"
          accept={ACCEPT}
          className={`${inputClass} file:mr-3 file:rounded file:border-0 file:bg-slate-100 file:px-3 file:py-1`}
          aria-invalid={!!e.file}
          aria-describedby={`${id}-file-hint${e.file ? ` ${id}-file-error` : ""}`}
          {...form.register("file")}
        />
        <p id={`${id}-file-hint`} className={hintClass}>
          PDF, PNG, JPEG, WebP, CSV, plain text or XML; at most 10 MB.
        </p>
        <FieldError id={`${id}-file-error`} message={e.file ? (e.file.message === "size" ? "Choose a file that is not empty and at most 10 MB." : "Choose a file to upload.") : undefined} />
      </div>
      <SubmitButton busy={form.formState.isSubmitting} busyText="Uploading…">
        Upload
      </SubmitButton>
      <FormAlert message={error} />
    </form>
  );
}
