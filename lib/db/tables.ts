// Every table of the schema, in one of three lists (docs/scaling.md "Distribution"):
// test/tenant-keys.test.ts checks the database against them and the migration runner
// (lib/db/migrate.ts) distributes them on a Citus cluster.

// Tables holding an organization's rows: each has `organization_id` in its primary key, its
// unique constraints and its foreign keys to other tenant tables; on Citus distributed by
// organization_id, co-located with the first (the anchor).
export const TENANT_TABLES = [
  "obligations",
  "account_links",
  "account_sessions",
  "api_keys",
  "bank_statement_items",
  "bank_statements",
  "basket_items",
  "baskets",
  "business_contexts",
  "context_relationships",
  "counterparty_aliases",
  "document_blobs",
  "documents",
  "events",
  "idempotency_records", // a key of no organization (the operator's reset link, an old-form token) under the nil UUID
  "inbox_items",
  "invitations",
  "issuer_sessions",
  "memberships",
  "obligation_conditions",
  "obligation_context_links",
  "obligation_credits",
  "obligation_imports",
  "obligation_messages",
  "obligation_projections",
  "overview_snapshots",
  "payment_allocations",
  "payment_instructions",
  "payment_requests",
  "payment_terms",
  "payments",
  "recipient_sessions",
  "reconciliation_settings",
  "reminder_policies",
  "reminders",
  "scheduled_event_marks",
  "suggestion_acceptances",
  "suggestion_rejections",
  "webhook_deliveries",
  "webhook_endpoints",
  "webhook_retry_keys",
] as const;

// Organization-less tables every node needs (on Citus reference tables, copied to every node):
// - organizations: the tenants themselves; every tenant table's foreign key points here.
// - users: an account can belong to several organizations (memberships), so it has none.
// - password_resets: a user's reset link; organization_id is the organization whose admin
//   made it, or NULL when the operator's CLI did, so it cannot be a key; rare writes.
export const REFERENCE_TABLES = ["organizations", "users", "password_resets"] as const;

// Organization-less tables kept on the coordinator only (on Citus plain local tables):
// - schema_migrations: the migration runner's own record.
// - rate_limit_buckets: keyed by an email or a client address (sign-in throttling), before
//   any organization is known; written on every counted attempt, so not copied to every node.
export const COORDINATOR_TABLES = ["schema_migrations", "rate_limit_buckets"] as const;
