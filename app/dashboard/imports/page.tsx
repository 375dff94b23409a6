import type { Metadata } from "next";
import { requireUser } from "@/lib/auth/current-user";
import { requestLocale } from "@/lib/dashboard/locale";
import { EinvoiceImport } from "@/components/imports/einvoice-import";

export const metadata: Metadata = { title: "Import e-invoices" };

// Import: e-invoice files become obligations after a preview (POST /obligation-imports,
// dry run first, then the registration on confirmation).
export default async function ImportsPage() {
  await requireUser({ permission: "obligations:write" });
  const locale = await requestLocale();
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Import e-invoices</h1>
        <p className="mt-1 text-sm text-slate-600">
          Structured invoices you sent or received (Peppol BIS / UBL, XRechnung, CII, Factur-X or ZUGFeRD PDFs) become obligations with their parties, amount,
          due date and references; the original file is attached. Each file is previewed first; nothing is registered until you confirm.
        </p>
      </div>
      <EinvoiceImport locale={locale} />
    </div>
  );
}
