-- Indexes for GET /obligations filters, search and sort (lib/obligations/list-obligations.ts),
-- measured with scripts/bench/seed.ts + scripts/bench/scale.ts at 10k and 1M obligations per
-- organization (docs/benchmarks.md).
--
-- Sorts: every sort key with id as the tie-breaker, behind organization_id, so a page in
-- either direction is an index range scan that stops after offset + limit rows.
CREATE INDEX obligations_org_deadline_idx ON obligations (organization_id, deadline, id);
CREATE INDEX obligations_org_amount_idx ON obligations (organization_id, amount_minor, id);
CREATE INDEX obligations_org_updated_idx ON obligations (organization_id, updated_at, id);
-- Expression index (not expressible in schema.prisma): outstanding = amount - allocated.
CREATE INDEX obligations_org_outstanding_idx ON obligations (organization_id, (amount_minor - allocated_minor), id);

-- Search: one trigram index over the searchable fields joined with a unit separator (the
-- exact expression of SEARCH_TEXT_SQL in lib/obligations/list-obligations.ts), so
-- `expr ILIKE '%term%'` over all eight fields is one bitmap index scan. Created only where
-- pg_trgm exists (migration 0004 creates it where it can, as it does in the embedded PGlite);
-- elsewhere a search filters the organization's rows.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    EXECUTE $sql$CREATE INDEX obligations_search_trgm_idx ON obligations USING gin ((reference || E'\x1f' || invoice_number || E'\x1f' || creditor_name
      || E'\x1f' || creditor_email || E'\x1f' || debtor_name || E'\x1f' || debtor_email || E'\x1f' || external_id || E'\x1f' || payment_reference) gin_trgm_ops)$sql$;
  ELSE
    RAISE NOTICE 'obligation search runs without a trigram index';
  END IF;
END
$$;
