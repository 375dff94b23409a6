-- Disputes, promises to pay and the payer inbox (docs/recipient-portal.md,
-- docs/dashboard.md "Inbox").
--
-- The current dispute and the current promise are columns of the obligation: they are read
-- with it (detail, recipient invoice, the scheduler's sweep) and written in the one UPDATE of
-- the action's mutation (lib/obligations/mutate-obligation.ts), so no extra statement or row
-- version. Their history is the audit trail (the events). Nullable, no default: adding them
-- rewrites nothing.
ALTER TABLE obligations
  ADD COLUMN dispute_status text,              -- open | accepted | rejected; NULL: never disputed
  ADD COLUMN dispute_reason text,
  ADD COLUMN dispute_message text,
  ADD COLUMN dispute_amount_minor bigint,
  ADD COLUMN dispute_opened_at timestamptz(3),
  ADD COLUMN dispute_resolved_at timestamptz(3),
  ADD COLUMN dispute_resolution_message text,
  ADD COLUMN promise_status text,              -- open | kept | broken; NULL: never promised
  ADD COLUMN promise_date date,
  ADD COLUMN promise_amount_minor bigint,
  ADD COLUMN promise_baseline_minor bigint,    -- allocated_minor when the promise was made
  ADD COLUMN promise_made_at timestamptz(3),
  ADD COLUMN promise_decided_at timestamptz(3);

-- What payers did (messages, reported payments, disputes, promises, uploads), one row per
-- action, inserted in the transaction of the action. read_at: when staff marked it read.
CREATE TABLE inbox_items (
  organization_id uuid NOT NULL,
  id uuid NOT NULL,
  obligation_id uuid NOT NULL,
  kind text NOT NULL,
  event_id uuid NOT NULL,
  detail jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  read_at timestamptz(3),
  read_by text,
  PRIMARY KEY (organization_id, id)
);
CREATE INDEX inbox_items_org_created_idx ON inbox_items (organization_id, created_at DESC, id DESC);
CREATE INDEX inbox_items_org_kind_created_idx ON inbox_items (organization_id, kind, created_at DESC, id DESC);
-- Partial index (not expressible in schema.prisma): the unread items, for the navigation's
-- count and the unread filter; it holds only what nobody has read yet.
CREATE INDEX inbox_items_unread_idx ON inbox_items (organization_id, created_at DESC, id DESC) WHERE read_at IS NULL;
