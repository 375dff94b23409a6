-- Indexes for GET /business-contexts?search=... (case-insensitive substring of name or
-- reference: `name ILIKE '%term%' OR reference ILIKE '%term%'`).
--
-- A substring match needs trigram indexes: pg_trgm GIN indexes serve ILIKE '%term%' for
-- terms of 3+ characters (the planner combines them with a BitmapOr and the organization
-- filter). pg_trgm ships with PostgreSQL's contrib package and is a trusted extension
-- (PostgreSQL 13+: a role with CREATE on the database may create it); the embedded PGlite
-- loads it (lib/db/embedded.ts). Where it cannot be created the migration still succeeds
-- without search indexes: a lower()/btree index cannot serve an unanchored substring
-- match, so a search then filters the organization's rows read through
-- business_contexts_org_created_idx (or the kind/type indexes below).
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm')
     AND EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm') THEN
    BEGIN
      CREATE EXTENSION IF NOT EXISTS pg_trgm;
    EXCEPTION WHEN insufficient_privilege OR feature_not_supported OR undefined_file THEN
      RAISE NOTICE 'pg_trgm could not be created (%); search runs without trigram indexes', SQLERRM;
    END;
  END IF;

  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    EXECUTE 'CREATE INDEX business_contexts_name_trgm_idx ON business_contexts USING gin (name gin_trgm_ops)';
    EXECUTE 'CREATE INDEX business_contexts_reference_trgm_idx ON business_contexts USING gin (reference gin_trgm_ops)';
  ELSE
    RAISE NOTICE 'business context search runs without trigram indexes';
  END IF;
END
$$;

-- Filters on kind and type (context_kind, deprecated context_type) in newest-first order.
CREATE INDEX business_contexts_org_kind_created_idx ON business_contexts (organization_id, kind, created_at DESC, id DESC);
CREATE INDEX business_contexts_org_type_created_idx ON business_contexts (organization_id, type, created_at DESC, id DESC);
