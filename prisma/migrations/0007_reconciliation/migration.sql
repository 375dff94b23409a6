-- Reconciliation: imported bank statements and their transactions, and the indexes the
-- matching engine narrows candidate obligations with (lib/reconciliation/candidates.ts),
-- so that no transaction ever scans all of an organization's obligations.

CREATE TABLE bank_statements (
  id                 uuid PRIMARY KEY,
  organization_id    uuid NOT NULL,
  format             text NOT NULL,
  filename           text NOT NULL DEFAULT '',
  sha256             text NOT NULL,
  account_iban       text NOT NULL DEFAULT '',
  account_identifier text NOT NULL DEFAULT '',
  account_currency   text NOT NULL DEFAULT '',
  period_from        date,
  period_to          date,
  entries            integer NOT NULL DEFAULT 0,
  credits            integer NOT NULL DEFAULT 0,
  debits             integer NOT NULL DEFAULT 0,
  payments_created   integer NOT NULL DEFAULT 0,
  duplicates_skipped integer NOT NULL DEFAULT 0,
  auto_allocated     integer NOT NULL DEFAULT 0,
  suggested          integer NOT NULL DEFAULT 0,
  created_at         timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX bank_statements_organization_id_created_at_id_idx ON bank_statements (organization_id, created_at DESC, id DESC);

CREATE TABLE bank_statement_items (
  id                uuid PRIMARY KEY,
  organization_id   uuid NOT NULL,
  statement_id      uuid NOT NULL REFERENCES bank_statements (id),
  position          integer NOT NULL,
  payment_id        uuid REFERENCES payments (id),
  duplicate_of      uuid REFERENCES payments (id),
  direction         text NOT NULL,
  amount_minor      bigint NOT NULL,
  currency          text NOT NULL,
  booked_on         date NOT NULL,
  counterparty_name text NOT NULL DEFAULT '',
  remittance        text NOT NULL DEFAULT '',
  bank_reference    text NOT NULL DEFAULT '',
  match             text NOT NULL,
  CONSTRAINT bank_statement_items_match_check CHECK (match IN ('auto_allocated', 'suggested', 'unmatched'))
);
CREATE UNIQUE INDEX bank_statement_items_statement_id_position_key ON bank_statement_items (statement_id, position);
CREATE INDEX bank_statement_items_organization_id_payment_id_idx ON bank_statement_items (organization_id, payment_id);

-- Candidate look-ups (open obligations only; RECONCILED ones are never suggested):
-- invoice numbers as remittance tokens (upper-cased, like the tokens),
CREATE INDEX obligations_org_invoice_number_open_idx ON obligations (organization_id, upper(invoice_number)) WHERE status <> 'RECONCILED';
-- the outstanding amount in a currency,
-- and one counterparty's obligations for the subset-sum (first four characters of the
-- name, lower-cased: lib/reconciliation/text.ts nameKey).
-- deadline and id close each key so that "earliest due date first, at most N" reads the
-- first N index entries instead of sorting (or worse, walking a deadline index and
-- filtering: seen taking minutes for a batch of amounts at 100,000 obligations).
CREATE INDEX obligations_org_currency_outstanding_open_idx ON obligations (organization_id, currency, (amount_minor - allocated_minor), deadline, id)
  WHERE status <> 'RECONCILED';
CREATE INDEX obligations_org_currency_debtor_key_open_idx ON obligations (organization_id, currency, lower(left(debtor_name, 4)), deadline, id)
  WHERE status <> 'RECONCILED';
CREATE INDEX obligations_org_currency_creditor_key_open_idx ON obligations (organization_id, currency, lower(left(creditor_name, 4)), deadline, id)
  WHERE status <> 'RECONCILED';
