-- idempotency_records becomes a tenant table (docs/scaling.md "Distribution"): keyed by
-- (organization_id, scope, key), so on Citus the claim and the stored response go to the shard
-- of the request's other statements. The organization is the scope's: `org:<id>` its own, a
-- link holder's (`req:<id>`) the payment request's or account link's, an anonymous exchange's
-- the route of its token. Records that name none (the operator's password-reset link, a token
-- of the old form, rows of earlier versions not traced here) get the nil UUID, a bucket of
-- their own; no foreign key to organizations for that reason.
ALTER TABLE idempotency_records ADD COLUMN organization_id uuid;
UPDATE idempotency_records SET organization_id = substr(scope, 5)::uuid
  WHERE scope ~ '^org:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
UPDATE idempotency_records r SET organization_id = p.organization_id
  FROM payment_requests p WHERE r.organization_id IS NULL AND r.scope = 'req:' || p.id::text;
UPDATE idempotency_records r SET organization_id = a.organization_id
  FROM account_links a WHERE r.organization_id IS NULL AND r.scope = 'req:' || a.id::text;
UPDATE idempotency_records SET organization_id = '00000000-0000-0000-0000-000000000000' WHERE organization_id IS NULL;
ALTER TABLE idempotency_records ALTER COLUMN organization_id SET NOT NULL;
ALTER TABLE idempotency_records DROP CONSTRAINT idempotency_records_pkey;
ALTER TABLE idempotency_records ADD PRIMARY KEY (organization_id, scope, key);
