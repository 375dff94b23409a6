-- The payer's account (docs/recipient-portal.md "Account link"):
-- a counterparty is derived from its obligations (no table); its account link is a
-- capability (token stored as SHA-256 only), exchanged for sessions like a payment
-- request's link; a basket is one transfer for several obligations with its own RF reference.
CREATE TABLE account_links (
  id uuid NOT NULL,
  organization_id uuid NOT NULL,
  counterparty_id uuid NOT NULL,
  token_hash text NOT NULL,
  expires_at timestamptz(3) NOT NULL,
  revoked_at timestamptz(3),
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id)
);
CREATE UNIQUE INDEX account_links_id_key ON account_links (id);
CREATE UNIQUE INDEX account_links_token_hash_key ON account_links (token_hash);
CREATE INDEX account_links_counterparty_idx ON account_links (organization_id, counterparty_id, created_at);

CREATE TABLE account_sessions (
  id uuid NOT NULL,
  organization_id uuid NOT NULL,
  account_link_id uuid NOT NULL,
  token_hash text NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  expires_at timestamptz(3) NOT NULL,
  PRIMARY KEY (organization_id, id)
);
CREATE UNIQUE INDEX account_sessions_token_hash_key ON account_sessions (token_hash);
CREATE INDEX account_sessions_link_idx ON account_sessions (organization_id, account_link_id);

CREATE TABLE baskets (
  id uuid NOT NULL,
  organization_id uuid NOT NULL,
  account_link_id uuid NOT NULL,
  counterparty_id uuid NOT NULL,
  payment_reference text NOT NULL,
  currency text NOT NULL,
  amount_minor bigint NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id)
);
CREATE UNIQUE INDEX baskets_org_payment_reference_key ON baskets (organization_id, payment_reference);

CREATE TABLE basket_items (
  organization_id uuid NOT NULL,
  basket_id uuid NOT NULL,
  position int NOT NULL,
  obligation_id uuid NOT NULL,
  amount_minor bigint NOT NULL,
  PRIMARY KEY (organization_id, basket_id, position)
);
