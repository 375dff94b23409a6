-- Reconciliation without a person (docs/reconciliation.md): the
-- organization's settings for automatic allocation, what accepted and rejected suggestions
-- taught, the indexes that find an invoice number written another way, and a statement's
-- opening and closing balances.

CREATE TABLE reconciliation_settings (
  organization_id uuid PRIMARY KEY REFERENCES organizations(id),
  auto_allocate text NOT NULL DEFAULT 'reference_only' CHECK (auto_allocate IN ('reference_only', 'confident')),
  -- A short payment within both bounds is allocated and the rest credited (§9); NULL: none.
  tolerance_max_minor bigint CHECK (tolerance_max_minor >= 0),
  tolerance_max_basis_points integer CHECK (tolerance_max_basis_points BETWEEN 0 AND 10000),
  tolerance_kind text CHECK (tolerance_kind IN ('bank_fee', 'discount')),
  updated_at timestamptz(3) NOT NULL DEFAULT now()
);

-- A payer name (normalized) that paid a party (normalized) in an accepted suggestion.
CREATE TABLE counterparty_aliases (
  organization_id uuid NOT NULL REFERENCES organizations(id),
  alias_key text NOT NULL,
  party_key text NOT NULL,
  direction text NOT NULL,
  alias_name text NOT NULL DEFAULT '',
  party_name text NOT NULL DEFAULT '',
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, alias_key, party_key, direction)
);

-- The stable part of a suggestion id (sug_...) a person rejected for a payment: hidden then.
CREATE TABLE suggestion_rejections (
  organization_id uuid NOT NULL REFERENCES organizations(id),
  payment_id uuid NOT NULL REFERENCES payments(id),
  suggestion_key text NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, payment_id, suggestion_key)
);

-- A suggestion a person accepted (GET /reconciliation/stats: "accepted as suggested").
CREATE TABLE suggestion_acceptances (
  organization_id uuid NOT NULL REFERENCES organizations(id),
  payment_id uuid NOT NULL REFERENCES payments(id),
  suggestion_key text NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, payment_id, suggestion_key)
);
CREATE INDEX suggestion_acceptances_organization_id_created_at_idx ON suggestion_acceptances (organization_id, created_at);

-- Invoice numbers as payers write them: without separators or case (`INV20260202`), and
-- also without leading zeros (`INV-2026-202`). lib/reconciliation/text.ts has the same
-- functions (invoiceCompact, invoiceKey): keep them in step.
CREATE FUNCTION fos_invoice_compact(t text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT upper(regexp_replace(t, '[^A-Za-z0-9]', '', 'g')) $$;
CREATE FUNCTION fos_invoice_key(t text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT upper(regexp_replace(regexp_replace(t, '(^|[^0-9])0+([0-9])', '\1\2', 'g'), '[^A-Za-z0-9]', '', 'g')) $$;
CREATE INDEX obligations_org_invoice_compact_open_idx ON obligations (organization_id, fos_invoice_compact(invoice_number))
  WHERE status <> 'RECONCILED' AND invoice_number <> '';
CREATE INDEX obligations_org_invoice_key_open_idx ON obligations (organization_id, fos_invoice_key(invoice_number))
  WHERE status <> 'RECONCILED' AND invoice_number <> '';

-- Opening and closing booked balances as the statement gives them (signed minor units of
-- the account's currency; NULL when the file has none).
ALTER TABLE bank_statements
  ADD COLUMN opening_balance_minor bigint,
  ADD COLUMN opening_balance_on date,
  ADD COLUMN closing_balance_minor bigint,
  ADD COLUMN closing_balance_on date;
