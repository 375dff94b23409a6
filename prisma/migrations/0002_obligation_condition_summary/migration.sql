-- The summary condition of an obligation registered with the legacy single `condition`
-- object: its status and satisfied_on. '' / NULL = derived from the obligation's conditions.
ALTER TABLE obligations ADD COLUMN condition_status text NOT NULL DEFAULT ''
  CHECK (condition_status IN ('', 'pending', 'satisfied', 'waived'));
ALTER TABLE obligations ADD COLUMN condition_satisfied_on date;
