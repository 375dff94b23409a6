-- Work is claimed organization by organization (docs/scaling.md, "Claiming work organization by
-- organization"): each claim names organization_id, so on Citus it runs on one shard. These
-- indexes serve those claims; the global ones of 0001, 0013 and 0027 still serve the read that
-- finds the organizations with due work.
-- (Each CREATE INDEX alone in its query text, through EXECUTE: on a cluster whose tables are
-- distributed already, an upgrade from 0028, Citus sends that text on to the workers as a
-- prepared statement, which takes one command only. The same indexes as before on PostgreSQL.)
DO $$
BEGIN
  EXECUTE 'CREATE INDEX obligations_org_next_scheduled_idx ON obligations (organization_id, next_scheduled_on) WHERE next_scheduled_on IS NOT NULL';
  EXECUTE $i$CREATE INDEX webhook_deliveries_org_pending_idx ON webhook_deliveries (organization_id, next_attempt_at) WHERE status = 'pending'$i$;
  EXECUTE $i$CREATE INDEX reminders_org_due_email_idx ON reminders (organization_id, next_attempt_at) WHERE status = 'due' AND channel = 'email'$i$;
END $$;
