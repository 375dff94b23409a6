"use client";

import { useId, useRef, useState, type FormEvent } from "react";
import { formatDateTime } from "@/lib/format/dates";
import type { TRecipientInvoice } from "@/lib/schemas/recipient";
import { fileSize, issuerOf } from "@/components/recipient/present";
import { useI18n } from "@/components/recipient/i18n";
import { Card, FieldError, FormAlert, SubmitButton, hintClass, inputClass, labelClass } from "@/components/recipient/ui";

export type Upload = (form: FormData, success: string) => Promise<string | null>;

export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
const ACCEPT = ".pdf,.png,.jpg,.jpeg,.webp,.csv,.txt,.xml,application/pdf,image/png,image/jpeg,image/webp,text/csv,text/plain,application/xml";
const KINDS = ["invoice", "supporting", "payment_evidence", "bank_observation"] as const;

// The documents of the request (download) and an upload of evidence.
export function Documents({ inv, hrefOf, upload, canUpload }: { inv: TRecipientInvoice; hrefOf: (id: string) => string; upload: Upload; canUpload: boolean }) {
  const { t, locale } = useI18n();
  return (
    <Card id="documents" title={t("docs.title")} description={t("docs.description")}>
      {inv.documents.length === 0 ? (
        <p className="text-sm text-slate-700">{t("docs.none")}</p>
      ) : (
        <ul className="divide-y divide-slate-200">
          {inv.documents.map((d) => (
            <li key={d.id} className="flex flex-wrap items-center justify-between gap-2 py-3">
              <div className="min-w-0">
                <p className="break-all font-medium">{d.filename}</p>
                <p className="text-sm text-slate-700">
                  {(KINDS as readonly string[]).includes(d.kind) ? t(`kind.${d.kind as (typeof KINDS)[number]}`) : d.kind} · {fileSize(d.size_bytes, locale, t)}{" "}
                  · {d.uploaded_by === "recipient" ? t("docs.fromYou") : t("docs.fromIssuer", { issuer: issuerOf(inv, t) })} ·{" "}
                  {formatDateTime(d.created_at, locale)}
                </p>
              </div>
              <a
                href={hrefOf(d.id)}
                download={d.filename}
                className="inline-flex min-h-11 items-center rounded-md border border-slate-400 px-3 py-1.5 text-sm font-medium text-brand-700 hover:bg-slate-50 print:hidden"
                aria-label={t("docs.downloadLabel", { name: d.filename })}
              >
                {t("docs.download")}
              </a>
            </li>
          ))}
        </ul>
      )}
      {canUpload && <UploadForm inv={inv} upload={upload} />}
    </Card>
  );
}

// The file is checked here for presence and size before the upload; the service sniffs its
// content again and answers 415 for what it does not accept.
function UploadForm({ inv, upload }: { inv: TRecipientInvoice; upload: Upload }) {
  const { t } = useI18n();
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const [kind, setKind] = useState<"payment_evidence" | "supporting">("payment_evidence");
  const [fileError, setFileError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (busy) return;
    const input = e.currentTarget.elements.namedItem("file") as HTMLInputElement;
    const file = input.files?.[0];
    if (!file) return setFileError(t("upload.errorMissing"));
    if (file.size === 0 || file.size > MAX_UPLOAD_BYTES) return setFileError(t("upload.errorSize"));
    setFileError(undefined);
    const fd = new FormData();
    fd.append("expected_version", String(inv.version));
    fd.append("kind", kind);
    fd.append("file", file, file.name);
    setBusy(true);
    const err = await upload(fd, t("upload.success", { name: file.name, issuer: issuerOf(inv, t) }));
    setBusy(false);
    setError(err);
    if (!err) {
      formRef.current?.reset();
      setKind("payment_evidence");
    }
  };
  return (
    <form ref={formRef} noValidate onSubmit={onSubmit} className="mt-5 space-y-4 border-t border-slate-200 pt-5 print:hidden">
      <h3 className="font-semibold">{t("upload.title")}</h3>
      <div>
        <label htmlFor={`${id}-kind`} className={labelClass}>
          {t("upload.kind")}
        </label>
        <select id={`${id}-kind`} name="kind" value={kind} onChange={(e) => setKind(e.target.value as typeof kind)} className={`${inputClass} sm:max-w-xs`}>
          <option value="payment_evidence">{t("upload.kindEvidence")}</option>
          <option value="supporting">{t("upload.kindOther")}</option>
        </select>
      </div>
      <div>
        <label htmlFor={`${id}-file`} className={labelClass}>
          {t("upload.file")}
        </label>
        <input
          id={`${id}-file`}
          name="file"
          type="file"
          accept={ACCEPT}
          className={`${inputClass} file:mr-3 file:rounded file:border-0 file:bg-slate-100 file:px-3 file:py-1`}
          aria-invalid={!!fileError}
          aria-describedby={`${id}-file-hint${fileError ? ` ${id}-file-error` : ""}`}
        />
        <p id={`${id}-file-hint`} className={hintClass}>
          {t("upload.hint")}
        </p>
        <FieldError id={`${id}-file-error`} message={fileError} />
      </div>
      <SubmitButton busy={busy} busyText={t("upload.busy")}>
        {t("upload.submit")}
      </SubmitButton>
      <FormAlert message={error} />
    </form>
  );
}
