-- Indexes for the dashboard overview (measured with scripts/bench/dashboard.ts at 100k
-- obligations / 300k events in one organization): recent activity reads the newest events
-- of an organization; the overdue list reads open obligations by deadline.
CREATE INDEX events_org_created_idx ON events (organization_id, created_at DESC, id DESC);
-- Partial index (not expressible in schema.prisma): only obligations still open.
CREATE INDEX obligations_org_open_deadline_idx ON obligations (organization_id, deadline) WHERE status <> 'RECONCILED';
