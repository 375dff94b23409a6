-- Administration: own sessions are listed with when they were last seen, from which
-- browser and how they signed in (password or identity provider).
ALTER TABLE issuer_sessions ADD COLUMN last_seen_at TIMESTAMPTZ(3);
ALTER TABLE issuer_sessions ADD COLUMN user_agent TEXT NOT NULL DEFAULT '';
ALTER TABLE issuer_sessions ADD COLUMN method TEXT NOT NULL DEFAULT 'password';
CREATE INDEX issuer_sessions_organization_id_user_id_idx ON issuer_sessions (organization_id, user_id);
