"use client";

import { useCallback, useId, useRef, useState } from "react";
import Link from "next/link";
import { apiCall, type ApiError } from "@/lib/client/api";
import { describeApiError as describeGeneric } from "@/lib/client/errors";
import { newIdempotencyKey } from "@/lib/client/idempotency-key";
import { formatMinor } from "@/lib/money/format";
import type { TImportResult } from "@/lib/schemas/einvoice";
import { btn, card, field } from "@/components/ui/styles";
import { Label } from "@/components/ui/field";
import { DropZone } from "@/components/ui/drop-zone";

type Role = "creditor" | "debtor";

// The import's refusals say what is wrong with the file; the generic wording covers the rest.
function describeApiError(e: ApiError): string {
  if (e.code === "unsupported_media_type") return "This is not an e-invoice. Choose a UBL or CII XML file, or a Factur-X / ZUGFeRD PDF.";
  if (["einvoice_unreadable", "nothing_payable", "duplicate"].includes(e.code)) return e.message;
  return describeGeneric(e);
}

type Item = {
  key: string; // React key and element ids
  file: File;
  role: Role;
  preview: { state: "loading" } | { state: "ready"; data: TImportResult } | { state: "refused"; error: ApiError };
  // One Idempotency-Key per registration of this file with this role: a retry after a
  // network failure reuses it, so the import never runs twice.
  confirmKey: string;
  confirm: { state: "idle" } | { state: "sending" } | { state: "done"; obligationId: string; reference: string } | { state: "failed"; error: ApiError };
};

const ROLE_LABEL: Record<Role, string> = { creditor: "We are the seller", debtor: "We are the buyer" };

function importForm(file: File, role: Role, dryRun: boolean): FormData {
  const f = new FormData();
  f.append("organization_role", role);
  f.append("dry_run", dryRun ? "true" : "false");
  f.append("file", file, file.name);
  return f;
}

// The Import page's working area: files dropped or chosen, each previewed by a dry run
// (what would be registered, with its warnings or the reason it is refused), its role
// chosen, then registered on confirmation, each with its own Idempotency-Key.
export function EinvoiceImport({ locale }: { locale: string }) {
  const [items, setItems] = useState<Item[]>([]);
  const inputRef = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const counter = useRef(0);

  const update = useCallback((key: string, f: (i: Item) => Item) => setItems((all) => all.map((i) => (i.key === key ? f(i) : i))), []);

  const preview = useCallback(
    async (key: string, file: File, role: Role) => {
      update(key, (i) => ({ ...i, role, preview: { state: "loading" }, confirm: { state: "idle" }, confirmKey: newIdempotencyKey() }));
      const r = await apiCall<TImportResult>("POST", "/obligation-imports", { form: importForm(file, role, true) });
      update(key, (i) => (i.role !== role ? i : { ...i, preview: r.ok ? { state: "ready", data: r.data } : { state: "refused", error: r.error } }));
    },
    [update],
  );

  const addFiles = useCallback(
    (files: FileList | File[]) => {
      const added: Item[] = Array.from(files).map((file) => ({
        key: `f${++counter.current}`,
        file,
        role: "creditor",
        preview: { state: "loading" },
        confirmKey: newIdempotencyKey(),
        confirm: { state: "idle" },
      }));
      setItems((all) => [...all, ...added]);
      for (const a of added) void preview(a.key, a.file, a.role);
    },
    [preview],
  );

  const register = useCallback(
    async (item: Item) => {
      update(item.key, (i) => ({ ...i, confirm: { state: "sending" } }));
      const r = await apiCall<TImportResult>("POST", "/obligation-imports", { form: importForm(item.file, item.role, false), idempotencyKey: item.confirmKey });
      update(item.key, (i) => {
        if (r.ok) {
          const o = r.data.result?.obligation;
          return { ...i, confirm: { state: "done", obligationId: o?.id ?? r.data.result?.invoice.id ?? "", reference: o?.reference ?? "" } };
        }
        // A definite answer ends this key; a network failure keeps it for the retry.
        return { ...i, confirm: { state: "failed", error: r.error }, confirmKey: r.error.code === "network_error" ? i.confirmKey : newIdempotencyKey() };
      });
    },
    [update],
  );

  const ready = items.filter((i) => i.preview.state === "ready" && (i.confirm.state === "idle" || i.confirm.state === "failed"));

  return (
    <div className="space-y-4">
      <DropZone onFiles={addFiles} testId="drop-zone" className="px-4 py-8">
        <p className="text-sm text-slate-700">Drop e-invoices here (UBL or CII XML, Factur-X / ZUGFeRD PDF), one or many.</p>
        <p className="mt-3">
          <label htmlFor={inputId} className={`${btn.secondary} cursor-pointer focus-within:outline-2`}>
            Choose files
          </label>
          <input
            ref={inputRef}
            id={inputId}
            type="file"
            multiple
            accept=".xml,.pdf,application/xml,text/xml,application/pdf"
            className="sr-only"
            onChange={(e) => {
              if (e.target.files?.length) addFiles(e.target.files);
              e.target.value = "";
            }}
          />
        </p>
        <p className="mt-2 text-xs text-slate-600">Nothing is registered until you confirm. At most 10 MiB per file.</p>
      </DropZone>

      {items.length > 0 && (
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 className="text-lg font-semibold">
            {items.length} {items.length === 1 ? "file" : "files"}
          </h2>
          <button type="button" className={btn.primary} disabled={ready.length === 0} onClick={() => ready.forEach((i) => void register(i))}>
            Register {ready.length === 1 ? "1 obligation" : `${ready.length} obligations`}
          </button>
        </div>
      )}

      <ul className="space-y-3" aria-label="Files to import">
        {items.map((item) => (
          <li key={item.key} className={`${card} p-4`} aria-labelledby={`${item.key}-name`}>
            <div className="flex flex-wrap items-start justify-between gap-2">
              <h3 id={`${item.key}-name`} className="min-w-0 break-all font-medium">
                {item.file.name}
              </h3>
              <button
                type="button"
                className={btn.small}
                onClick={() => setItems((all) => all.filter((i) => i.key !== item.key))}
                disabled={item.confirm.state === "sending"}
                aria-label={`Remove ${item.file.name}`}
              >
                Remove
              </button>
            </div>

            <div className="mt-2 max-w-xs">
              <Label htmlFor={`${item.key}-role`}>Our role</Label>
              <select
                id={`${item.key}-role`}
                className={field.input}
                value={item.role}
                disabled={item.confirm.state === "sending" || item.confirm.state === "done"}
                onChange={(e) => void preview(item.key, item.file, e.target.value as Role)}
              >
                {(Object.keys(ROLE_LABEL) as Role[]).map((r) => (
                  <option key={r} value={r}>
                    {ROLE_LABEL[r]}
                  </option>
                ))}
              </select>
            </div>

            <div aria-live="polite" className="mt-3 text-sm">
              {item.preview.state === "loading" && <p className="text-slate-600">Reading…</p>}
              {item.preview.state === "refused" && (
                <p role="alert" className="rounded-md bg-rose-50 px-3 py-2 text-rose-800">
                  Cannot be imported: {describeApiError(item.preview.error)}
                </p>
              )}
              {item.preview.state === "ready" && <Preview data={item.preview.data} locale={locale} />}
            </div>

            {item.preview.state === "ready" && (
              <div className="mt-3 flex flex-wrap items-center gap-3 text-sm">
                {item.confirm.state === "done" ? (
                  <p role="status" className="rounded-md bg-emerald-50 px-3 py-2 text-emerald-800">
                    Registered as{" "}
                    <Link className="font-medium underline" href={`/dashboard/obligations/${item.confirm.obligationId}`}>
                      {item.confirm.reference || "the new obligation"}
                    </Link>
                  </p>
                ) : (
                  <button type="button" className={btn.primary} disabled={item.confirm.state === "sending"} onClick={() => void register(item)}>
                    {item.confirm.state === "sending" ? "Registering…" : `Register ${item.file.name}`}
                  </button>
                )}
                {item.confirm.state === "failed" && (
                  <p role="alert" className="rounded-md bg-rose-50 px-3 py-2 text-rose-800">
                    {describeApiError(item.confirm.error)}
                  </p>
                )}
              </div>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

function Preview({ data, locale }: { data: TImportResult; locale: string }) {
  const r = data.request;
  if (!r) return null;
  const kind = data.import.document_type === "credit_note" ? "Credit note" : "Invoice";
  return (
    <div className="space-y-2">
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
        <dt className="text-slate-600">{kind}</dt>
        <dd className="min-w-0 break-words font-medium">{r.business_context.invoice_number}</dd>
        <dt className="text-slate-600">Amount</dt>
        <dd className="font-medium">{formatMinor(r.amount_minor, r.currency, { locale })}</dd>
        <dt className="text-slate-600">Due</dt>
        <dd>{r.deadline}</dd>
        <dt className="text-slate-600">Creditor</dt>
        <dd className="min-w-0 break-words">{r.creditor?.name}</dd>
        <dt className="text-slate-600">Debtor</dt>
        <dd className="min-w-0 break-words">{r.debtor?.name}</dd>
        {r.business_context.description ? (
          <>
            <dt className="text-slate-600">Description</dt>
            <dd className="min-w-0 break-words">{r.business_context.description}</dd>
          </>
        ) : null}
        <dt className="text-slate-600">Format</dt>
        <dd className="min-w-0 break-words">
          {data.import.format.toUpperCase()}
          {data.import.source === "pdf" ? " in PDF" : ""}
          {data.import.profile ? ` · ${data.import.profile}` : ""}
        </dd>
        {r.payment_terms?.length ? (
          <>
            <dt className="text-slate-600">Instalments</dt>
            <dd>{r.payment_terms.map((t) => `${formatMinor(t.fixed_amount_minor ?? "0", r.currency, { locale })} on ${t.due_date}`).join(", ")}</dd>
          </>
        ) : null}
      </dl>
      {data.warnings.length > 0 && (
        <div className="rounded-md bg-amber-50 px-3 py-2 text-amber-900">
          <p className="font-medium">{data.warnings.length === 1 ? "1 warning" : `${data.warnings.length} warnings`}</p>
          <ul className="mt-1 list-disc space-y-1 pl-5">
            {data.warnings.map((w, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: warnings are a fixed list per preview, never reordered
              <li key={i} className="break-words">
                <span className="font-mono text-xs">{w.rule}</span> {w.message}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
