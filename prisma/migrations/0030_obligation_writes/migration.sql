-- The triggers that read or write another table go (Citus refuses them on a shard: "cannot
-- execute a distributed query from a query on a shard"); their work moves into the statements
-- that change the rows (docs/obligations.md "No silent duplicates", docs/architecture.md
-- "Stored projections"). The same-row trigger of obligations.projection_rev (0015, 0016) stays.

-- Parts and linked contexts (0015): the code writes conditions, payment terms and context links
-- only inside an obligation mutation (lib/obligations/mutate-obligation.ts), whose UPDATE of
-- the obligation's row bumps projection_rev in the same transaction, or at registration with
-- the new row. No code updates a business context; an operator who renames one bumps the
-- linked obligations' projection_rev in the same transaction (docs/architecture.md).
-- On a Citus cluster (tables already distributed), DDL of functions after DDL of shards
-- needs one connection per node; elsewhere a setting nobody reads.
SET LOCAL citus.multi_shard_modify_mode = 'sequential';
-- (DROP TRIGGER and CREATE INDEX each alone in its query text, through EXECUTE: on a cluster
-- whose tables are distributed already, Citus sends that text on to the shards.)
DO $$
BEGIN
  EXECUTE 'DROP TRIGGER obligation_conditions_projection ON obligation_conditions';
  EXECUTE 'DROP TRIGGER payment_terms_projection ON payment_terms';
  EXECUTE 'DROP TRIGGER obligation_context_links_projection ON obligation_context_links';
  EXECUTE 'DROP TRIGGER business_contexts_projection ON business_contexts';
END $$;
DROP FUNCTION fos_obligation_part_changed();
DROP FUNCTION fos_business_context_changed();

-- No silent duplicates (0021): a unique index instead of the look-up under an advisory lock.
-- An external reference names at most one live (not cancelled) obligation per organization;
-- an invoice's default reference { invoice, invoice_number } stays outside, as before.
-- Live twins a database may already hold (registered before 0021, or un-cancelled after the
-- reference was registered again, which 0030's code refuses): the oldest keeps the reference,
-- the younger ones name it in duplicate_of and stay outside the index.
ALTER TABLE obligations ADD COLUMN duplicate_of uuid;
UPDATE obligations o SET duplicate_of = t.keep
  FROM (
    SELECT organization_id, id,
           first_value(id) OVER (PARTITION BY organization_id, external_namespace, external_id ORDER BY created_at, id) AS keep
      FROM obligations
     WHERE cancelled_at IS NULL
       AND NOT (obligation_type = 'invoice' AND external_namespace = 'invoice' AND external_id = invoice_number)
  ) t
 WHERE o.organization_id = t.organization_id AND o.id = t.id AND t.keep <> t.id;
DO $$ BEGIN EXECUTE 'DROP TRIGGER obligations_no_duplicate ON obligations'; END $$;
DROP FUNCTION fos_obligation_no_duplicate();
DO $$
BEGIN
  EXECUTE $i$CREATE UNIQUE INDEX obligations_live_external_reference_key ON obligations (organization_id, external_namespace, external_id)
    WHERE cancelled_at IS NULL AND duplicate_of IS NULL
      AND NOT (obligation_type = 'invoice' AND external_namespace = 'invoice' AND external_id = invoice_number)$i$;
END $$;
