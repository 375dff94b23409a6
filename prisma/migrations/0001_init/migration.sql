-- Initial schema of the Financial Obligations Service. Kept in step with
-- prisma/schema.prisma (checked by test/schema-drift.test.ts).

CREATE TABLE organizations (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now()
);

CREATE TABLE users (
  id uuid PRIMARY KEY,
  email text NOT NULL UNIQUE,
  name text NOT NULL DEFAULT '',
  password_hash text NOT NULL,
  password_changed_at timestamptz(3) NOT NULL DEFAULT now(),
  created_at timestamptz(3) NOT NULL DEFAULT now()
);

CREATE TABLE memberships (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations(id),
  user_id uuid NOT NULL REFERENCES users(id),
  role text NOT NULL CHECK (role IN ('owner', 'admin', 'member', 'viewer')),
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  UNIQUE (organization_id, user_id)
);
CREATE INDEX memberships_user_id_idx ON memberships (user_id);

CREATE TABLE issuer_sessions (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations(id),
  user_id uuid NOT NULL REFERENCES users(id),
  token_hash text NOT NULL UNIQUE,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  expires_at timestamptz(3) NOT NULL,
  revoked_at timestamptz(3)
);
CREATE INDEX issuer_sessions_user_id_idx ON issuer_sessions (user_id);

CREATE TABLE api_keys (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations(id),
  name text NOT NULL DEFAULT '',
  prefix text NOT NULL,
  key_hash text NOT NULL UNIQUE,
  scopes text[] NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  revoked_at timestamptz(3),
  last_used_at timestamptz(3)
);
CREATE INDEX api_keys_organization_id_idx ON api_keys (organization_id);

CREATE TABLE rate_limit_buckets (
  key text NOT NULL,
  window_start timestamptz(3) NOT NULL,
  count integer NOT NULL DEFAULT 0,
  PRIMARY KEY (key, window_start)
);
CREATE INDEX rate_limit_buckets_window_start_idx ON rate_limit_buckets (window_start);

CREATE TABLE idempotency_records (
  scope text NOT NULL,
  key text NOT NULL,
  method text NOT NULL,
  path text NOT NULL,
  fingerprint text NOT NULL,
  state text NOT NULL CHECK (state IN ('processing', 'completed')),
  response_status integer,
  response_body text,
  response_headers jsonb,
  locked_until timestamptz(3) NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  completed_at timestamptz(3),
  PRIMARY KEY (scope, key)
);
CREATE INDEX idempotency_records_created_at_idx ON idempotency_records (created_at);

CREATE TABLE obligations (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations(id),
  reference text NOT NULL,
  obligation_type text NOT NULL CHECK (obligation_type IN ('invoice', 'payment_condition', 'contractual')),
  organization_role text NOT NULL CHECK (organization_role IN ('creditor', 'debtor')),
  external_namespace text NOT NULL,
  external_id text NOT NULL,
  creditor_name text NOT NULL DEFAULT '',
  creditor_email text NOT NULL DEFAULT '',
  debtor_name text NOT NULL DEFAULT '',
  debtor_email text NOT NULL DEFAULT '',
  amount_minor bigint NOT NULL CHECK (amount_minor > 0),
  allocated_minor bigint NOT NULL DEFAULT 0,
  currency text NOT NULL,
  deadline date NOT NULL,
  invoice_number text NOT NULL,
  description text NOT NULL DEFAULT '',
  label text NOT NULL DEFAULT '',
  condition_summary text NOT NULL DEFAULT '',
  status text NOT NULL CHECK (status IN ('OBLIGATION_CAPTURED', 'PAYMENT_REQUESTED', 'PAYMENT_CLAIMED', 'PARTIALLY_RECONCILED', 'RECONCILED')),
  version integer NOT NULL DEFAULT 1 CHECK (version >= 1),
  acknowledged boolean NOT NULL DEFAULT false,
  expected_payment_date date,
  reported_payment_date date,
  reported_amount_minor bigint,
  reported_reference text NOT NULL DEFAULT '',
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  updated_at timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT obligations_allocated_bounds CHECK (allocated_minor >= 0 AND allocated_minor <= amount_minor),
  UNIQUE (organization_id, reference)
);
CREATE INDEX obligations_org_created_idx ON obligations (organization_id, created_at DESC, id DESC);
CREATE INDEX obligations_org_external_idx ON obligations (organization_id, external_namespace, external_id);

CREATE TABLE obligation_conditions (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations(id),
  obligation_id uuid NOT NULL REFERENCES obligations(id),
  position integer NOT NULL,
  key text NOT NULL,
  label text NOT NULL,
  external_namespace text,
  external_id text,
  status text NOT NULL CHECK (status IN ('waiting', 'satisfied', 'waived')),
  satisfied_on date,
  source text NOT NULL DEFAULT '',
  evidence_reference text NOT NULL DEFAULT '',
  UNIQUE (obligation_id, key)
);
CREATE INDEX obligation_conditions_org_obligation_idx ON obligation_conditions (organization_id, obligation_id);

CREATE TABLE payment_terms (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations(id),
  obligation_id uuid NOT NULL REFERENCES obligations(id),
  sequence integer NOT NULL CHECK (sequence >= 1),
  label text NOT NULL DEFAULT '',
  amount_type text NOT NULL CHECK (amount_type IN ('fixed', 'percentage')),
  fixed_amount_minor bigint,
  percentage_basis_points integer,
  trigger_type text NOT NULL,
  trigger_date date,
  condition_id uuid,
  due_rule text NOT NULL,
  due_date date,
  due_days integer,
  UNIQUE (obligation_id, sequence)
);
CREATE INDEX payment_terms_org_obligation_idx ON payment_terms (organization_id, obligation_id);

CREATE TABLE payment_requests (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations(id),
  obligation_id uuid NOT NULL REFERENCES obligations(id),
  issue_number integer NOT NULL DEFAULT 1,
  token_hash text NOT NULL UNIQUE,
  expires_at timestamptz(3) NOT NULL,
  revoked_at timestamptz(3),
  first_opened_at timestamptz(3),
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  updated_at timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX payment_requests_org_obligation_idx ON payment_requests (organization_id, obligation_id);

CREATE TABLE recipient_sessions (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations(id),
  payment_request_id uuid NOT NULL REFERENCES payment_requests(id),
  issue_number integer NOT NULL,
  token_hash text NOT NULL UNIQUE,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  expires_at timestamptz(3) NOT NULL
);
CREATE INDEX recipient_sessions_payment_request_id_idx ON recipient_sessions (payment_request_id);

CREATE TABLE documents (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations(id),
  obligation_id uuid NOT NULL REFERENCES obligations(id),
  kind text NOT NULL,
  filename text NOT NULL,
  content_type text NOT NULL,
  size_bytes integer NOT NULL,
  sha256 text NOT NULL,
  storage_key text NOT NULL,
  uploaded_by text NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX documents_org_obligation_idx ON documents (organization_id, obligation_id);

CREATE TABLE document_blobs (
  storage_key text PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations(id),
  content bytea NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now()
);

CREATE TABLE obligation_messages (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations(id),
  obligation_id uuid NOT NULL REFERENCES obligations(id),
  author_type text NOT NULL,
  author_name text NOT NULL DEFAULT '',
  body text NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX obligation_messages_org_obligation_idx ON obligation_messages (organization_id, obligation_id, created_at);

CREATE TABLE payments (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations(id),
  amount_minor bigint NOT NULL CHECK (amount_minor > 0),
  allocated_minor bigint NOT NULL DEFAULT 0,
  currency text NOT NULL,
  received_on date NOT NULL,
  payer_name text NOT NULL DEFAULT '',
  reference text NOT NULL DEFAULT '',
  external_namespace text,
  external_id text,
  note text NOT NULL DEFAULT '',
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  updated_at timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT payments_allocated_bounds CHECK (allocated_minor >= 0 AND allocated_minor <= amount_minor),
  UNIQUE (organization_id, external_namespace, external_id)
);
CREATE INDEX payments_org_created_idx ON payments (organization_id, created_at DESC, id DESC);

CREATE TABLE payment_allocations (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations(id),
  payment_id uuid NOT NULL REFERENCES payments(id),
  obligation_id uuid NOT NULL REFERENCES obligations(id),
  amount_minor bigint NOT NULL CHECK (amount_minor > 0),
  created_at timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX payment_allocations_org_payment_idx ON payment_allocations (organization_id, payment_id);
CREATE INDEX payment_allocations_org_obligation_idx ON payment_allocations (organization_id, obligation_id);

CREATE TABLE business_contexts (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations(id),
  type text NOT NULL,
  kind text NOT NULL,
  name text NOT NULL,
  reference text NOT NULL DEFAULT '',
  type_label text NOT NULL DEFAULT '',
  external_namespace text,
  external_id text,
  created_at timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX business_contexts_org_created_idx ON business_contexts (organization_id, created_at DESC, id DESC);

CREATE TABLE context_relationships (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations(id),
  from_context_id uuid NOT NULL REFERENCES business_contexts(id),
  to_context_id uuid NOT NULL REFERENCES business_contexts(id),
  relationship_type text NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  CHECK (from_context_id <> to_context_id),
  UNIQUE (organization_id, from_context_id, to_context_id, relationship_type)
);
CREATE INDEX context_relationships_org_to_idx ON context_relationships (organization_id, to_context_id);

CREATE TABLE obligation_context_links (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations(id),
  obligation_id uuid NOT NULL REFERENCES obligations(id),
  context_id uuid NOT NULL REFERENCES business_contexts(id),
  relationship_type text NOT NULL,
  attributed_minor bigint CHECK (attributed_minor IS NULL OR attributed_minor > 0),
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  UNIQUE (obligation_id, context_id)
);
CREATE INDEX obligation_context_links_org_context_idx ON obligation_context_links (organization_id, context_id);

CREATE TABLE events (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations(id),
  type text NOT NULL,
  obligation_id uuid,
  payment_id uuid,
  actor_type text NOT NULL,
  actor_id text NOT NULL DEFAULT '',
  actor_label text NOT NULL DEFAULT '',
  data jsonb NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX events_org_obligation_idx ON events (organization_id, obligation_id, created_at);
CREATE INDEX events_org_payment_idx ON events (organization_id, payment_id, created_at);

CREATE TABLE webhook_endpoints (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations(id),
  url text NOT NULL,
  secret_ciphertext text NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  disabled_reason text NOT NULL DEFAULT '',
  last_success_at timestamptz(3),
  last_failure_at timestamptz(3),
  consecutive_failures integer NOT NULL DEFAULT 0,
  created_at timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX webhook_endpoints_organization_id_idx ON webhook_endpoints (organization_id);

CREATE TABLE webhook_deliveries (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations(id),
  endpoint_id uuid NOT NULL REFERENCES webhook_endpoints(id),
  event_id uuid NOT NULL REFERENCES events(id),
  status text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  schedule_index integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz(3),
  lease_until timestamptz(3),
  last_attempt_at timestamptz(3),
  last_response_status integer,
  last_error text NOT NULL DEFAULT '',
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  updated_at timestamptz(3) NOT NULL DEFAULT now(),
  UNIQUE (endpoint_id, event_id)
);
CREATE INDEX webhook_deliveries_status_next_idx ON webhook_deliveries (status, next_attempt_at);
CREATE INDEX webhook_deliveries_org_created_idx ON webhook_deliveries (organization_id, created_at DESC);

CREATE TABLE webhook_retry_keys (
  organization_id uuid NOT NULL REFERENCES organizations(id),
  delivery_id uuid NOT NULL REFERENCES webhook_deliveries(id),
  key text NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, key)
);
CREATE INDEX webhook_retry_keys_delivery_id_idx ON webhook_retry_keys (delivery_id);
