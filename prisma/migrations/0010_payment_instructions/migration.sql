-- Payment instructions: how payers pay the organization, one row per currency.
CREATE TABLE payment_instructions (
  organization_id uuid NOT NULL REFERENCES organizations(id),
  currency text NOT NULL,
  account_holder text NOT NULL,
  iban text,
  bic text,
  account_number text,
  routing_number text,
  sort_code text,
  bank_name text,
  note text,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  updated_at timestamptz(3) NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, currency)
);
