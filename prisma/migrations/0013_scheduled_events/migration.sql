-- Scheduled events (obligation.term_payable, obligation.due, obligation.overdue,
-- payment_request.expiring), produced by the scheduler sweep (lib/scheduler/sweep.ts).
--
-- next_scheduled_on: the first UTC calendar date on which something may happen to the
-- obligation; NULL when nothing can any more. The sweep claims rows due today or earlier
-- (FOR UPDATE SKIP LOCKED), emits what is due and writes the next date. The default (today
-- in UTC) makes new rows, and every existing row, due at the next sweep without any change
-- to registration. A constant default: adding the column does not rewrite the table.
ALTER TABLE obligations ADD COLUMN next_scheduled_on date DEFAULT ((now() AT TIME ZONE 'UTC'))::date;
-- Partial index (not expressible in schema.prisma): only obligations something can still happen to.
CREATE INDEX obligations_next_scheduled_idx ON obligations (next_scheduled_on) WHERE next_scheduled_on IS NOT NULL;

-- What the scheduler has emitted, one row per obligation, kind and key (a term's sequence,
-- an overdue threshold in days, a payment request id and issue number). Inserted with
-- ON CONFLICT DO NOTHING in the transaction of the event: the backstop that makes each
-- scheduled event exactly once, whatever number of instances sweep at once.
CREATE TABLE scheduled_event_marks (
  organization_id uuid NOT NULL,
  obligation_id uuid NOT NULL,
  kind text NOT NULL,
  key text NOT NULL,
  event_id uuid NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, obligation_id, kind, key)
);
