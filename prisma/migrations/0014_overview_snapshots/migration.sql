-- The dashboard overview of a large organization, computed ahead (lib/dashboard/overview.ts,
-- docs/dashboard.md "Overview snapshots"). An organization with more than OVERVIEW_LIVE_MAX
-- obligations reads its overview from here (one row by primary key) instead of scanning its
-- obligations on every request; the scheduler's worker recomputes rows older than
-- OVERVIEW_SNAPSHOT_MAX_AGE_SECONDS or computed for another day.
--
-- computed_for: the UTC calendar day the figures were computed for ("today" of the overdue
-- split, the aging buckets and the cash weeks); computed_at: when the computation started;
-- obligation_count: the organization's obligations then; data: the summary (without the
-- most-overdue list, which stays live), the aging and the cash series exactly as the page
-- renders them (money as decimal strings of minor units).
CREATE TABLE overview_snapshots (
  organization_id uuid PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
  computed_for date NOT NULL,
  computed_at timestamptz(3) NOT NULL,
  obligation_count bigint NOT NULL,
  data jsonb NOT NULL
);
-- The worker's "oldest first" pick of stale snapshots.
CREATE INDEX overview_snapshots_computed_at_idx ON overview_snapshots (computed_at);

-- The most-overdue list of the overview stays live (lib/obligations/list-most-overdue.ts):
-- ORDER BY deadline, created_at, id over the open obligations. On (organization_id, deadline)
-- alone (migration 0005) PostgreSQL read and sorted every open obligation of the first
-- deadline day (1,668 rows, 21 ms at 1M obligations); with the tie-breakers in the index the
-- list is a range that stops after its 8 entries. Replaces the narrower index (same name; it
-- serves everything the old one did), so writes keep the same number of indexes.
DROP INDEX obligations_org_open_deadline_idx;
CREATE INDEX obligations_org_open_deadline_idx ON obligations (organization_id, deadline, created_at, id) WHERE status <> 'RECONCILED';
