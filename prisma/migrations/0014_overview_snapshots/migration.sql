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
