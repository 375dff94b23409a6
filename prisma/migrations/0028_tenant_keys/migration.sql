-- Tenant keys (docs/scaling.md "Distribution"; checked by test/tenant-keys.test.ts): every
-- table holding an organization's rows gets organization_id in its primary key, in every
-- unique constraint and index, and on both sides of every foreign key between two such
-- tables, as a Citus layout distributed by organization_id and co-located requires. Keeps
-- the data: constraints are dropped and added again around the same rows (a composite
-- foreign key also checks that each row and the row it points to share their organization).
-- Hashes of credentials and capabilities stay found by the hash alone for now: unique with
-- the organization, plus a plain index on the hash.

-- 1. The foreign keys between tenant tables go first (they hang on the primary keys).
ALTER TABLE bank_statement_items DROP CONSTRAINT bank_statement_items_duplicate_of_fkey;
ALTER TABLE bank_statement_items DROP CONSTRAINT bank_statement_items_payment_id_fkey;
ALTER TABLE bank_statement_items DROP CONSTRAINT bank_statement_items_statement_id_fkey;
ALTER TABLE context_relationships DROP CONSTRAINT context_relationships_from_context_id_fkey;
ALTER TABLE context_relationships DROP CONSTRAINT context_relationships_to_context_id_fkey;
ALTER TABLE documents DROP CONSTRAINT documents_obligation_id_fkey;
ALTER TABLE invitations DROP CONSTRAINT invitations_membership_id_fkey;
ALTER TABLE obligation_conditions DROP CONSTRAINT obligation_conditions_obligation_id_fkey;
ALTER TABLE obligation_context_links DROP CONSTRAINT obligation_context_links_context_id_fkey;
ALTER TABLE obligation_context_links DROP CONSTRAINT obligation_context_links_obligation_id_fkey;
ALTER TABLE obligation_credits DROP CONSTRAINT obligation_credits_obligation_id_fkey;
ALTER TABLE obligation_imports DROP CONSTRAINT obligation_imports_document_id_fkey;
ALTER TABLE obligation_imports DROP CONSTRAINT obligation_imports_obligation_id_fkey;
ALTER TABLE obligation_messages DROP CONSTRAINT obligation_messages_obligation_id_fkey;
ALTER TABLE obligation_projections DROP CONSTRAINT obligation_projections_obligation_id_fkey;
ALTER TABLE payment_allocations DROP CONSTRAINT payment_allocations_obligation_id_fkey;
ALTER TABLE payment_allocations DROP CONSTRAINT payment_allocations_payment_id_fkey;
ALTER TABLE payment_requests DROP CONSTRAINT payment_requests_obligation_id_fkey;
ALTER TABLE payment_terms DROP CONSTRAINT payment_terms_obligation_id_fkey;
ALTER TABLE recipient_sessions DROP CONSTRAINT recipient_sessions_payment_request_id_fkey;
ALTER TABLE reminders DROP CONSTRAINT reminders_obligation_id_fkey;
ALTER TABLE suggestion_acceptances DROP CONSTRAINT suggestion_acceptances_payment_id_fkey;
ALTER TABLE suggestion_rejections DROP CONSTRAINT suggestion_rejections_payment_id_fkey;
ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_endpoint_id_fkey;
ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_event_id_fkey;
ALTER TABLE webhook_retry_keys DROP CONSTRAINT webhook_retry_keys_delivery_id_fkey;

-- 2. Primary keys (id) become (organization_id, id); the same names.
ALTER TABLE api_keys DROP CONSTRAINT api_keys_pkey, ADD CONSTRAINT api_keys_pkey PRIMARY KEY (organization_id, id);
ALTER TABLE bank_statement_items DROP CONSTRAINT bank_statement_items_pkey, ADD CONSTRAINT bank_statement_items_pkey PRIMARY KEY (organization_id, id);
ALTER TABLE bank_statements DROP CONSTRAINT bank_statements_pkey, ADD CONSTRAINT bank_statements_pkey PRIMARY KEY (organization_id, id);
ALTER TABLE business_contexts DROP CONSTRAINT business_contexts_pkey, ADD CONSTRAINT business_contexts_pkey PRIMARY KEY (organization_id, id);
ALTER TABLE context_relationships DROP CONSTRAINT context_relationships_pkey, ADD CONSTRAINT context_relationships_pkey PRIMARY KEY (organization_id, id);
ALTER TABLE documents DROP CONSTRAINT documents_pkey, ADD CONSTRAINT documents_pkey PRIMARY KEY (organization_id, id);
ALTER TABLE events DROP CONSTRAINT events_pkey, ADD CONSTRAINT events_pkey PRIMARY KEY (organization_id, id);
ALTER TABLE invitations DROP CONSTRAINT invitations_pkey, ADD CONSTRAINT invitations_pkey PRIMARY KEY (organization_id, id);
ALTER TABLE issuer_sessions DROP CONSTRAINT issuer_sessions_pkey, ADD CONSTRAINT issuer_sessions_pkey PRIMARY KEY (organization_id, id);
ALTER TABLE memberships DROP CONSTRAINT memberships_pkey, ADD CONSTRAINT memberships_pkey PRIMARY KEY (organization_id, id);
ALTER TABLE obligation_conditions DROP CONSTRAINT obligation_conditions_pkey, ADD CONSTRAINT obligation_conditions_pkey PRIMARY KEY (organization_id, id);
ALTER TABLE obligation_context_links DROP CONSTRAINT obligation_context_links_pkey, ADD CONSTRAINT obligation_context_links_pkey PRIMARY KEY (organization_id, id);
ALTER TABLE obligation_credits DROP CONSTRAINT obligation_credits_pkey, ADD CONSTRAINT obligation_credits_pkey PRIMARY KEY (organization_id, id);
ALTER TABLE obligation_imports DROP CONSTRAINT obligation_imports_pkey, ADD CONSTRAINT obligation_imports_pkey PRIMARY KEY (organization_id, id);
ALTER TABLE obligation_messages DROP CONSTRAINT obligation_messages_pkey, ADD CONSTRAINT obligation_messages_pkey PRIMARY KEY (organization_id, id);
ALTER TABLE obligations DROP CONSTRAINT obligations_pkey, ADD CONSTRAINT obligations_pkey PRIMARY KEY (organization_id, id);
ALTER TABLE payment_allocations DROP CONSTRAINT payment_allocations_pkey, ADD CONSTRAINT payment_allocations_pkey PRIMARY KEY (organization_id, id);
ALTER TABLE payment_requests DROP CONSTRAINT payment_requests_pkey, ADD CONSTRAINT payment_requests_pkey PRIMARY KEY (organization_id, id);
ALTER TABLE payment_terms DROP CONSTRAINT payment_terms_pkey, ADD CONSTRAINT payment_terms_pkey PRIMARY KEY (organization_id, id);
ALTER TABLE payments DROP CONSTRAINT payments_pkey, ADD CONSTRAINT payments_pkey PRIMARY KEY (organization_id, id);
ALTER TABLE recipient_sessions DROP CONSTRAINT recipient_sessions_pkey, ADD CONSTRAINT recipient_sessions_pkey PRIMARY KEY (organization_id, id);
ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_pkey, ADD CONSTRAINT webhook_deliveries_pkey PRIMARY KEY (organization_id, id);
ALTER TABLE webhook_endpoints DROP CONSTRAINT webhook_endpoints_pkey, ADD CONSTRAINT webhook_endpoints_pkey PRIMARY KEY (organization_id, id);
-- keyed by something other than id
ALTER TABLE document_blobs DROP CONSTRAINT document_blobs_pkey, ADD CONSTRAINT document_blobs_pkey PRIMARY KEY (organization_id, storage_key);
ALTER TABLE obligation_projections DROP CONSTRAINT obligation_projections_pkey, ADD CONSTRAINT obligation_projections_pkey PRIMARY KEY (organization_id, obligation_id);

-- 3. Unique constraints and indexes take organization_id first.
ALTER TABLE obligation_conditions DROP CONSTRAINT obligation_conditions_obligation_id_key_key,
  ADD CONSTRAINT obligation_conditions_organization_id_obligation_id_key_key UNIQUE (organization_id, obligation_id, key);
ALTER TABLE obligation_context_links DROP CONSTRAINT obligation_context_links_obligation_id_context_id_key,
  ADD CONSTRAINT obligation_context_links_org_obligation_id_context_id_key UNIQUE (organization_id, obligation_id, context_id);
ALTER TABLE payment_terms DROP CONSTRAINT payment_terms_obligation_id_sequence_key,
  ADD CONSTRAINT payment_terms_organization_id_obligation_id_sequence_key UNIQUE (organization_id, obligation_id, sequence);
ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_endpoint_id_event_id_key,
  ADD CONSTRAINT webhook_deliveries_organization_id_endpoint_id_event_id_key UNIQUE (organization_id, endpoint_id, event_id);
DROP INDEX bank_statement_items_statement_id_position_key;
CREATE UNIQUE INDEX bank_statement_items_org_statement_id_position_key ON bank_statement_items (organization_id, statement_id, position);
-- (organization_id, id) is account_links' primary key already
DROP INDEX account_links_id_key;

-- Hashes of credentials and capabilities: unique within the organization, found by the hash
-- alone through a plain index until the lookups find the organization first.
ALTER TABLE api_keys DROP CONSTRAINT api_keys_key_hash_key,
  ADD CONSTRAINT api_keys_organization_id_key_hash_key UNIQUE (organization_id, key_hash);
CREATE INDEX api_keys_key_hash_idx ON api_keys (key_hash);
ALTER TABLE issuer_sessions DROP CONSTRAINT issuer_sessions_token_hash_key,
  ADD CONSTRAINT issuer_sessions_organization_id_token_hash_key UNIQUE (organization_id, token_hash);
CREATE INDEX issuer_sessions_token_hash_idx ON issuer_sessions (token_hash);
ALTER TABLE payment_requests DROP CONSTRAINT payment_requests_token_hash_key,
  ADD CONSTRAINT payment_requests_organization_id_token_hash_key UNIQUE (organization_id, token_hash);
CREATE INDEX payment_requests_token_hash_idx ON payment_requests (token_hash);
ALTER TABLE recipient_sessions DROP CONSTRAINT recipient_sessions_token_hash_key,
  ADD CONSTRAINT recipient_sessions_organization_id_token_hash_key UNIQUE (organization_id, token_hash);
CREATE INDEX recipient_sessions_token_hash_idx ON recipient_sessions (token_hash);
ALTER TABLE invitations DROP CONSTRAINT invitations_token_hash_key,
  ADD CONSTRAINT invitations_organization_id_token_hash_key UNIQUE (organization_id, token_hash);
CREATE INDEX invitations_token_hash_idx ON invitations (token_hash);
DROP INDEX account_links_token_hash_key;
CREATE UNIQUE INDEX account_links_organization_id_token_hash_key ON account_links (organization_id, token_hash);
CREATE INDEX account_links_token_hash_idx ON account_links (token_hash);
DROP INDEX account_sessions_token_hash_key;
CREATE UNIQUE INDEX account_sessions_organization_id_token_hash_key ON account_sessions (organization_id, token_hash);
CREATE INDEX account_sessions_token_hash_idx ON account_sessions (token_hash);

-- 4. The foreign keys again, organization_id on both sides (the same names).
ALTER TABLE bank_statement_items ADD CONSTRAINT bank_statement_items_duplicate_of_fkey FOREIGN KEY (organization_id, duplicate_of) REFERENCES payments (organization_id, id);
ALTER TABLE bank_statement_items ADD CONSTRAINT bank_statement_items_payment_id_fkey FOREIGN KEY (organization_id, payment_id) REFERENCES payments (organization_id, id);
ALTER TABLE bank_statement_items ADD CONSTRAINT bank_statement_items_statement_id_fkey FOREIGN KEY (organization_id, statement_id) REFERENCES bank_statements (organization_id, id);
ALTER TABLE context_relationships ADD CONSTRAINT context_relationships_from_context_id_fkey FOREIGN KEY (organization_id, from_context_id) REFERENCES business_contexts (organization_id, id);
ALTER TABLE context_relationships ADD CONSTRAINT context_relationships_to_context_id_fkey FOREIGN KEY (organization_id, to_context_id) REFERENCES business_contexts (organization_id, id);
ALTER TABLE documents ADD CONSTRAINT documents_obligation_id_fkey FOREIGN KEY (organization_id, obligation_id) REFERENCES obligations (organization_id, id);
-- was ON DELETE SET NULL: Citus refuses SET NULL on a foreign key holding the distribution
-- column, so removing a member clears its invitations' membership_id itself (lib/administration/remove-member.ts)
ALTER TABLE invitations ADD CONSTRAINT invitations_membership_id_fkey FOREIGN KEY (organization_id, membership_id) REFERENCES memberships (organization_id, id);
ALTER TABLE obligation_conditions ADD CONSTRAINT obligation_conditions_obligation_id_fkey FOREIGN KEY (organization_id, obligation_id) REFERENCES obligations (organization_id, id);
ALTER TABLE obligation_context_links ADD CONSTRAINT obligation_context_links_context_id_fkey FOREIGN KEY (organization_id, context_id) REFERENCES business_contexts (organization_id, id);
ALTER TABLE obligation_context_links ADD CONSTRAINT obligation_context_links_obligation_id_fkey FOREIGN KEY (organization_id, obligation_id) REFERENCES obligations (organization_id, id);
ALTER TABLE obligation_credits ADD CONSTRAINT obligation_credits_obligation_id_fkey FOREIGN KEY (organization_id, obligation_id) REFERENCES obligations (organization_id, id);
ALTER TABLE obligation_imports ADD CONSTRAINT obligation_imports_document_id_fkey FOREIGN KEY (organization_id, document_id) REFERENCES documents (organization_id, id);
ALTER TABLE obligation_imports ADD CONSTRAINT obligation_imports_obligation_id_fkey FOREIGN KEY (organization_id, obligation_id) REFERENCES obligations (organization_id, id);
ALTER TABLE obligation_messages ADD CONSTRAINT obligation_messages_obligation_id_fkey FOREIGN KEY (organization_id, obligation_id) REFERENCES obligations (organization_id, id);
ALTER TABLE obligation_projections ADD CONSTRAINT obligation_projections_obligation_id_fkey FOREIGN KEY (organization_id, obligation_id) REFERENCES obligations (organization_id, id) ON DELETE CASCADE;
ALTER TABLE payment_allocations ADD CONSTRAINT payment_allocations_obligation_id_fkey FOREIGN KEY (organization_id, obligation_id) REFERENCES obligations (organization_id, id);
ALTER TABLE payment_allocations ADD CONSTRAINT payment_allocations_payment_id_fkey FOREIGN KEY (organization_id, payment_id) REFERENCES payments (organization_id, id);
ALTER TABLE payment_requests ADD CONSTRAINT payment_requests_obligation_id_fkey FOREIGN KEY (organization_id, obligation_id) REFERENCES obligations (organization_id, id);
ALTER TABLE payment_terms ADD CONSTRAINT payment_terms_obligation_id_fkey FOREIGN KEY (organization_id, obligation_id) REFERENCES obligations (organization_id, id);
ALTER TABLE recipient_sessions ADD CONSTRAINT recipient_sessions_payment_request_id_fkey FOREIGN KEY (organization_id, payment_request_id) REFERENCES payment_requests (organization_id, id);
ALTER TABLE reminders ADD CONSTRAINT reminders_obligation_id_fkey FOREIGN KEY (organization_id, obligation_id) REFERENCES obligations (organization_id, id);
ALTER TABLE suggestion_acceptances ADD CONSTRAINT suggestion_acceptances_payment_id_fkey FOREIGN KEY (organization_id, payment_id) REFERENCES payments (organization_id, id);
ALTER TABLE suggestion_rejections ADD CONSTRAINT suggestion_rejections_payment_id_fkey FOREIGN KEY (organization_id, payment_id) REFERENCES payments (organization_id, id);
ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_endpoint_id_fkey FOREIGN KEY (organization_id, endpoint_id) REFERENCES webhook_endpoints (organization_id, id);
ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_event_id_fkey FOREIGN KEY (organization_id, event_id) REFERENCES events (organization_id, id);
ALTER TABLE webhook_retry_keys ADD CONSTRAINT webhook_retry_keys_delivery_id_fkey FOREIGN KEY (organization_id, delivery_id) REFERENCES webhook_deliveries (organization_id, id);
