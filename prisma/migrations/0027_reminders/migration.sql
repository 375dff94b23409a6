-- Reminders, sent (docs/reminders.md): the organization's reminder
-- policy, one row per reminder (obligation and step, exactly once) and the language the
-- payer last used on the hosted page.

CREATE TABLE reminder_policies (
  organization_id uuid PRIMARY KEY REFERENCES organizations(id),
  enabled boolean NOT NULL DEFAULT false,
  -- [{ offset_days, tone }] ordered by offset_days
  steps jsonb NOT NULL DEFAULT '[]',
  channel text NOT NULL DEFAULT 'webhook' CHECK (channel IN ('webhook', 'email')),
  sender_name text NOT NULL DEFAULT '',
  reply_to text NOT NULL DEFAULT '',
  -- NULL: no late-payment interest shown
  interest_enabled boolean NOT NULL DEFAULT false,
  reference_rate_basis_points integer CHECK (reference_rate_basis_points BETWEEN 0 AND 100000),
  margin_basis_points integer CHECK (margin_basis_points BETWEEN 0 AND 100000),
  fixed_compensation_minor bigint CHECK (fixed_compensation_minor >= 0),
  updated_at timestamptz(3) NOT NULL DEFAULT now()
);

-- One reminder per obligation and step (the step's offset_days), inserted by the sweep's
-- claim ON CONFLICT DO NOTHING. status: due (email not yet accepted by SMTP), sent,
-- failed (retries exhausted), skipped (a later step was reached at the same time).
CREATE TABLE reminders (
  organization_id uuid NOT NULL REFERENCES organizations(id),
  id uuid NOT NULL,
  obligation_id uuid NOT NULL REFERENCES obligations(id),
  step integer NOT NULL,
  tone text NOT NULL,
  channel text NOT NULL CHECK (channel IN ('webhook', 'email')),
  status text NOT NULL CHECK (status IN ('due', 'sent', 'failed', 'skipped')),
  scheduled_on date NOT NULL,
  language text NOT NULL DEFAULT 'en',
  recipient_email text NOT NULL DEFAULT '',
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz(3),
  last_error text NOT NULL DEFAULT '',
  sent_at timestamptz(3),
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id),
  UNIQUE (organization_id, obligation_id, step)
);
CREATE INDEX reminders_due_email_idx ON reminders (next_attempt_at) WHERE status = 'due' AND channel = 'email';
CREATE INDEX reminders_org_scheduled_idx ON reminders (organization_id, scheduled_on);

ALTER TABLE payment_requests ADD COLUMN payer_language text NOT NULL DEFAULT '';
