-- Raises an error from inside a statement. A write held back and sent in the same round trip
-- as COMMIT (lib/db.ts, sqlLater) cannot be checked by the code after it: when its check
-- fails, the statement itself must fail, so that the transaction is aborted and COMMIT rolls
-- it back (the idempotency store, lib/idempotency/index.ts, raises FO001 when a concurrent
-- request completed the same key). VOLATILE: evaluated only where the statement reaches it.
CREATE FUNCTION fos_raise(code text, message text) RETURNS boolean
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  RAISE EXCEPTION USING ERRCODE = code, MESSAGE = message;
END;
$$;
