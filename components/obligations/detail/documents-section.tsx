import { DOCUMENT_KIND_LABELS, formatTimestamp } from "@/lib/dashboard/format";
import { Empty, Section } from "@/components/ui/section";
import { DocumentUpload } from "@/components/obligations/document-upload";
import type { SectionProps } from "@/components/obligations/detail/types";
import { link } from "@/components/ui/styles";

const bytes = (n: number) => (n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`);

// The documents of both sides, downloadable, and the upload form.
export function DocumentsSection({ o, locale, canWrite }: SectionProps) {
  return (
    <Section title="Documents" id="documents">
      {o.documents.length === 0 ? (
        <Empty>No documents yet.</Empty>
      ) : (
        <ul className="divide-y divide-slate-100">
          {o.documents.map((d) => (
            <li key={d.id} className="flex flex-wrap items-center justify-between gap-2 py-2.5">
              <div className="min-w-0">
                <a href={`/api/v1/obligations/${o.id}/documents/${d.id}`} download={d.filename} className={`${link} break-all font-medium`}>
                  {d.filename}
                </a>
                <p className="text-sm text-slate-600" title={`SHA-256 ${d.sha256}`}>
                  {DOCUMENT_KIND_LABELS[d.kind]} · {bytes(d.size_bytes)} · {d.uploaded_by === "issuer" ? "uploaded by you" : "from the recipient"} ·{" "}
                  <time dateTime={d.created_at}>{formatTimestamp(d.created_at, locale)}</time>
                </p>
              </div>
            </li>
          ))}
        </ul>
      )}
      {canWrite && (
        <div className="mt-4 border-t border-slate-100 pt-4">
          <DocumentUpload />
        </div>
      )}
    </Section>
  );
}
