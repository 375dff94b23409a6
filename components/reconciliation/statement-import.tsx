"use client";

import { useCallback, useId, useState } from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { type ApiError, type ApiResult, NETWORK_FAILURE, apiResult } from "@/lib/client/api";
import { describeApiError as describeGeneric, inWords } from "@/lib/client/errors";
import { useSubmissionKey } from "@/lib/client/submission-key";
import type { TBankStatement } from "@/lib/schemas/reconciliation";
import { btn, card } from "@/components/ui/styles";
import { CsvMappingForm } from "@/components/reconciliation/csv-mapping-form";
import { DropZone } from "@/components/ui/drop-zone";

type Progress = { phase: "uploading"; loaded: number; total: number } | { phase: "importing" };

type State =
  | { state: "idle" }
  | { state: "busy"; file: File; progress: Progress }
  | { state: "done"; file: File; statement: TBankStatement }
  | { state: "refused"; file: File; error: ApiError };

// The import's refusals name the file's problem (line or element); keep the server's words.
function describeApiError(e: ApiError): string {
  if (e.code === "unsupported_media_type") return "This is not a bank statement. Choose a camt.053 / camt.054 XML file, an MT940 file or a CSV export.";
  if (e.code === "statement_unreadable" || e.code === "validation_failed") return inWords(e.message);
  if (e.code === "payload_too_large") return "The file is too large: statements are limited to 10 MiB.";
  return describeGeneric(e);
}

// A CSV the server could not read without knowing its columns: the refusal names csv_mapping.
const needsMapping = (s: State) => s.state === "refused" && (/csv_mapping/.test(s.error.message) || /\.csv$/i.test(s.file.name));

// POST /bank-statements with upload progress (fetch has none): XMLHttpRequest with the
// session cookie, the same Idempotency-Key for a retry of the same file after a network
// failure, and the service's error envelope.
function uploadStatement(form: FormData, key: string, onProgress: (p: Progress) => void): Promise<ApiResult<TBankStatement>> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/api/v1/bank-statements");
    xhr.withCredentials = true;
    xhr.setRequestHeader("idempotency-key", key);
    xhr.upload.onprogress = (e) => onProgress({ phase: "uploading", loaded: e.loaded, total: e.lengthComputable ? e.total : 0 });
    // Once every byte is sent the server parses, stores and matches: no measurable progress.
    xhr.upload.onload = () => onProgress({ phase: "importing" });
    xhr.onerror = () => resolve(NETWORK_FAILURE);
    xhr.onload = () => resolve(apiResult<TBankStatement>(xhr.status, xhr.responseText));
    xhr.send(form);
  });
}

export function StatementImport({ locale }: { locale: string }) {
  const router = useRouter();
  const [s, setS] = useState<State>({ state: "idle" });
  const [autoAllocate, setAutoAllocate] = useState(true);
  const inputId = useId();
  // One key per file, mapping and choice: reused only when the previous try never reached the server.
  const keys = useSubmissionKey();

  const run = useCallback(
    async (file: File, csvMapping?: string) => {
      const form = new FormData();
      if (csvMapping) {
        form.append("format", "csv");
        form.append("csv_mapping", csvMapping);
      }
      form.append("auto_allocate", autoAllocate ? "true" : "false");
      form.append("file", file, file.name);
      const key = keys.keyFor(form, "POST /bank-statements");
      setS({ state: "busy", file, progress: { phase: "uploading", loaded: 0, total: file.size } });
      const r = await uploadStatement(form, key, (progress) => setS((cur) => (cur.state === "busy" ? { ...cur, progress } : cur)));
      if (r.ok || r.error.code !== "network_error") keys.settle();
      if (r.ok) {
        setS({ state: "done", file, statement: r.data });
        router.refresh();
      } else {
        setS({ state: "refused", file, error: r.error });
        if (r.error.code === "unauthenticated") router.push("/login");
      }
    },
    [autoAllocate, keys, router],
  );

  const busy = s.state === "busy";
  const nf = new Intl.NumberFormat(locale);

  return (
    <div className="space-y-4">
      <DropZone
        onFiles={(files) => {
          if (!busy) void run(files[0]);
        }}
        testId="statement-drop-zone"
        className="px-4 py-6"
      >
        <p className="text-sm text-slate-700">Drop a bank statement here: camt.053, camt.054, MT940 or CSV. The format is recognized from the content.</p>
        <p className="mt-3">
          <label htmlFor={inputId} className={`${btn.secondary} cursor-pointer focus-within:outline-2 ${busy ? "pointer-events-none opacity-60" : ""}`}>
            Choose a statement file
          </label>
          <input
            id={inputId}
            type="file"
            disabled={busy}
            accept=".xml,.sta,.mt940,.940,.txt,.csv,application/xml,text/xml,text/csv,text/plain"
            className="sr-only"
            onChange={(e) => {
              const f = e.target.files?.[0];
              if (f) void run(f);
              e.target.value = "";
            }}
          />
        </p>
        <p className="mt-3 flex items-center justify-center gap-2 text-sm text-slate-700">
          <input id={`${inputId}-auto`} type="checkbox" checked={autoAllocate} onChange={(e) => setAutoAllocate(e.target.checked)} disabled={busy} />
          <label htmlFor={`${inputId}-auto`}>Allocate automatically what the settings below allow</label>
        </p>
        <p className="mt-2 text-xs text-slate-600">At most 10 MiB and 20,000 transactions. Importing the same transactions again creates no duplicates.</p>
      </DropZone>

      <div aria-live="polite">
        {s.state === "busy" && (
          <div role="status" className={`${card} space-y-2 p-4 text-sm`}>
            <p>
              {s.progress.phase === "uploading"
                ? `Uploading ${s.file.name}${s.progress.total ? ` (${Math.floor((100 * s.progress.loaded) / s.progress.total)} %)` : ""}…`
                : `Importing ${s.file.name}: reading the transactions and matching them…`}
            </p>
            {s.progress.phase === "uploading" && s.progress.total ? (
              <progress className="h-2 w-full" max={s.progress.total} value={s.progress.loaded} aria-label="Upload progress" />
            ) : (
              <progress className="h-2 w-full" aria-label="Import in progress" />
            )}
          </div>
        )}
        {s.state === "done" && <Summary statement={s.statement} fileName={s.file.name} nf={nf} />}
        {s.state === "refused" && (
          <p role="alert" className="rounded-md bg-rose-50 px-3 py-2 text-sm text-rose-800">
            {s.file.name} could not be imported: {describeApiError(s.error)}
          </p>
        )}
      </div>

      {needsMapping(s) && s.state === "refused" && (
        <div className={`${card} p-4`}>
          <h3 className="font-medium">Describe the CSV columns</h3>
          <p className="mt-1 text-sm text-slate-600">Name each column by its header text (or its position, counting from 0) and import {s.file.name} again.</p>
          <CsvMappingForm disabled={busy} onSubmit={(mapping) => void run(s.file, mapping)} />
        </div>
      )}
    </div>
  );
}

function Summary({ statement: st, fileName, nf }: { statement: TBankStatement; fileName: string; nf: Intl.NumberFormat }) {
  const rows: [string, number][] = [
    ["Transactions", st.entries],
    ["Credits (money in)", st.credits],
    ["Debits (money out)", st.debits],
    ["Payments created", st.payments_created],
    ["Duplicates skipped", st.duplicates_skipped],
    ["Allocated automatically", st.auto_allocated],
    ["With suggestions", st.suggested],
  ];
  return (
    <section aria-labelledby="import-summary-title" className={`${card} p-4`}>
      <h3 id="import-summary-title" className="font-medium">
        Imported {fileName}
      </h3>
      <p className="mt-1 text-sm text-slate-600">
        {st.format}
        {st.account.iban || st.account.identifier ? ` · account ${st.account.iban || st.account.identifier}` : ""}
        {st.period.from ? ` · ${st.period.from} to ${st.period.to}` : ""}
      </p>
      <dl className="mt-3 grid grid-cols-2 gap-2 sm:grid-cols-4">
        {rows.map(([k, v]) => (
          <div key={k} className="rounded-md bg-slate-50 px-3 py-2">
            <dt className="text-xs text-slate-600">{k}</dt>
            <dd className="text-lg font-semibold tabular-nums">{nf.format(v)}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-3 text-sm">
        <Link href={`/dashboard/reconciliation/statements/${st.id}`} className="font-medium text-brand-700 underline">
          Open the statement&apos;s transactions
        </Link>
      </p>
    </section>
  );
}
