-- Identity (docs/administration.md "Members, invitations and password resets"): one
-- account per person; a membership is "invited" until the person accepts a one-time
-- invitation; credentials are set only by the person (invitation, reset link) or by the
-- operator's CLI.
ALTER TABLE memberships ADD COLUMN status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('invited', 'active'));

-- Emails are stored lower-cased by every writer; new rows must be (case-insensitive
-- uniqueness with the plain unique index). NOT VALID: existing rows are not rechecked.
ALTER TABLE users ADD CONSTRAINT users_email_lower_case CHECK (email = lower(email)) NOT VALID;

-- One-time invitation links: the token only as SHA-256. A reissue ends the earlier one
-- (revoked_at), acceptance uses it (used_at); a withdrawn invitation loses its membership.
CREATE TABLE invitations (
  id UUID PRIMARY KEY,
  organization_id UUID NOT NULL REFERENCES organizations(id),
  membership_id UUID REFERENCES memberships(id) ON DELETE SET NULL,
  user_id UUID NOT NULL REFERENCES users(id),
  token_hash TEXT NOT NULL UNIQUE,
  expires_at TIMESTAMPTZ(3) NOT NULL,
  created_at TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  used_at TIMESTAMPTZ(3),
  revoked_at TIMESTAMPTZ(3)
);
CREATE INDEX invitations_organization_id_membership_id_idx ON invitations (organization_id, membership_id);

-- One-time password-reset links (an owner's or admin's for an account only their
-- organization holds, or the operator's: organization_id NULL).
CREATE TABLE password_resets (
  id UUID PRIMARY KEY,
  user_id UUID NOT NULL REFERENCES users(id),
  organization_id UUID REFERENCES organizations(id),
  token_hash TEXT NOT NULL UNIQUE,
  expires_at TIMESTAMPTZ(3) NOT NULL,
  created_at TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  used_at TIMESTAMPTZ(3)
);
CREATE INDEX password_resets_user_id_idx ON password_resets (user_id);

-- Existing accounts. Until now an organization could choose a member's password when it
-- created the account (POST /members with sign_in "password") or when it re-added a
-- person who had no membership left. Such a password is trusted only where that
-- organization is the account's one and only organization. Whose password it is:
--  * the person's own, when it was changed after the account's creation and no
--    membership was created at that moment (POST /session/password);
--  * else the organization whose membership was created together with the account (or
--    with the change, for a re-added person), within 5 seconds;
--  * else unknown (that organization has left since: the attack of issue 33).
-- Every other password is cleared (the account signs in by single sign-on or after a
-- reset link) and the account's sessions end.
WITH setter AS (
  SELECT u.id,
    CASE
      WHEN u.password_changed_at > u.created_at + interval '5 seconds'
        AND NOT EXISTS (SELECT 1 FROM memberships m WHERE m.user_id = u.id
          AND m.created_at BETWEEN u.password_changed_at - interval '5 seconds' AND u.password_changed_at + interval '5 seconds')
        THEN 'person'
      ELSE 'organization'
    END AS kind,
    (SELECT m.organization_id FROM memberships m WHERE m.user_id = u.id
      AND m.created_at BETWEEN greatest(u.created_at, u.password_changed_at) - interval '5 seconds'
        AND greatest(u.created_at, u.password_changed_at) + interval '5 seconds'
      ORDER BY m.created_at LIMIT 1) AS organization_id
  FROM users u
  WHERE u.password_hash <> ''
),
untrusted AS (
  SELECT s.id FROM setter s
  WHERE s.kind = 'organization'
    AND (s.organization_id IS NULL
      OR EXISTS (SELECT 1 FROM memberships m WHERE m.user_id = s.id AND m.organization_id <> s.organization_id))
),
cleared AS (
  UPDATE users SET password_hash = '', password_changed_at = now()
  WHERE id IN (SELECT id FROM untrusted)
  RETURNING id
)
UPDATE issuer_sessions SET revoked_at = now()
WHERE revoked_at IS NULL AND user_id IN (SELECT id FROM cleared);
