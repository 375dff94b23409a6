-- Managed webhook endpoints (docs/webhooks.md "Managing endpoints"):
-- an event-type filter (empty = every type), the previous secret kept sealed for 24 hours
-- after a rotation (deliveries carry both signatures meanwhile), the start of the current
-- run of failures (an endpoint failing every attempt for 5 days is disabled), and a soft
-- deletion (its deliveries stay in the history).
ALTER TABLE webhook_endpoints
  ADD COLUMN event_types text[] NOT NULL DEFAULT '{}',
  ADD COLUMN previous_secret_ciphertext text NOT NULL DEFAULT '',
  ADD COLUMN previous_secret_expires_at timestamptz(3),
  ADD COLUMN failing_since timestamptz(3),
  ADD COLUMN deleted_at timestamptz(3);
