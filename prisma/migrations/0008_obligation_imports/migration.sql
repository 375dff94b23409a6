-- E-invoice imports (POST /obligation-imports): one row per registered import, so an invoice
-- (same seller identifier and invoice number) is registered at most once per organization.
CREATE TABLE obligation_imports (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations(id),
  obligation_id uuid NOT NULL REFERENCES obligations(id),
  document_id uuid NOT NULL REFERENCES documents(id),
  format text NOT NULL,
  document_type text NOT NULL,
  profile text NOT NULL DEFAULT '',
  source text NOT NULL,
  sha256 text NOT NULL,
  seller_key text NOT NULL,
  invoice_number text NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  UNIQUE (organization_id, seller_key, invoice_number)
);
CREATE INDEX obligation_imports_org_obligation_idx ON obligation_imports (organization_id, obligation_id);
