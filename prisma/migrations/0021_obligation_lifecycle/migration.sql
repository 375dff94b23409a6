-- The whole life of an obligation (docs/obligations.md "Lifecycle").

-- Credits: settling without money (credit note, cancellation, write-off, discount, bank fee).
-- A live credit (reversed_at NULL) counts in the obligation's allocated_minor and credited_minor.
CREATE TABLE obligation_credits (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations(id),
  obligation_id uuid NOT NULL REFERENCES obligations(id),
  kind text NOT NULL CHECK (kind IN ('credit_note', 'cancellation', 'write_off', 'discount', 'bank_fee')),
  amount_minor bigint NOT NULL CHECK (amount_minor > 0),
  reason text NOT NULL CHECK (char_length(reason) BETWEEN 1 AND 500),
  reference text NOT NULL DEFAULT '',
  document_id uuid,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  reversed_at timestamptz(3),
  reversal_reason text NOT NULL DEFAULT '',
  CONSTRAINT obligation_credits_reversal_reason CHECK (reversed_at IS NULL OR reversal_reason <> '')
);
CREATE INDEX obligation_credits_org_obligation_idx ON obligation_credits (organization_id, obligation_id);

-- The part of allocated_minor that credits settled (the rest came from payments), and when
-- a live cancellation took the obligation out of the books (NULL otherwise).
ALTER TABLE obligations ADD COLUMN credited_minor bigint NOT NULL DEFAULT 0;
ALTER TABLE obligations ADD COLUMN cancelled_at timestamptz(3);
ALTER TABLE obligations ADD CONSTRAINT obligations_credited_bounds CHECK (credited_minor >= 0 AND credited_minor <= allocated_minor);

-- Reversed allocations stay in the history; only live ones count in allocated_minor.
ALTER TABLE payment_allocations ADD COLUMN reversed_at timestamptz(3);
ALTER TABLE payment_allocations ADD COLUMN reversal_reason text NOT NULL DEFAULT '';
ALTER TABLE payment_allocations ADD CONSTRAINT payment_allocations_reversal_reason CHECK (reversed_at IS NULL OR reversal_reason <> '');

-- Dismissed payments (not a receivable): out of the unallocated queue, never with anything allocated.
ALTER TABLE payments ADD COLUMN dismissed_at timestamptz(3);
ALTER TABLE payments ADD COLUMN dismissal_reason text NOT NULL DEFAULT '';
ALTER TABLE payments ADD COLUMN dismissal_note text NOT NULL DEFAULT '';
ALTER TABLE payments ADD CONSTRAINT payments_dismissed_unallocated CHECK (dismissed_at IS NULL OR allocated_minor = 0);
ALTER TABLE payments ADD CONSTRAINT payments_dismissal_reason CHECK (
  dismissal_reason IN ('', 'bank_fee', 'internal_transfer', 'refund', 'not_receivable', 'other'));

-- No silent duplicates: a new obligation whose external reference already names an
-- obligation of the organization that is not cancelled fails its INSERT with FO002 (mapped
-- to 409 `duplicate`, the message naming the existing id). Checked in the INSERT itself, so
-- registration keeps its one statement; the advisory lock makes two concurrent twins queue
-- (the second's look-up, a new snapshot in a volatile function, then sees the first).
-- Existing duplicates are left as they are (a unique index could not be built over them).
-- An invoice registered through POST /invoices without an external_reference gets the
-- default { namespace: "invoice", id: invoice_number }: that default is not checked (§9
-- applies to a reference the client gave; the same invoice number may be reissued).
CREATE FUNCTION fos_obligation_no_duplicate() RETURNS trigger
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  existing uuid;
BEGIN
  IF NEW.obligation_type = 'invoice' AND NEW.external_namespace = 'invoice' AND NEW.external_id = NEW.invoice_number THEN
    RETURN NEW;
  END IF;
  PERFORM pg_advisory_xact_lock(hashtext('obligation-external:' || NEW.organization_id::text || ':' || NEW.external_namespace || ':' || NEW.external_id));
  SELECT o.id INTO existing FROM obligations o
    WHERE o.organization_id = NEW.organization_id AND o.external_namespace = NEW.external_namespace
      AND o.external_id = NEW.external_id AND o.cancelled_at IS NULL AND o.id <> NEW.id
    LIMIT 1;
  IF existing IS NOT NULL THEN
    RAISE EXCEPTION USING ERRCODE = 'FO002',
      MESSAGE = format('external_reference %s/%s already names obligation %s, which is not cancelled', NEW.external_namespace, NEW.external_id, existing);
  END IF;
  RETURN NEW;
END;
$$;
CREATE TRIGGER obligations_no_duplicate BEFORE INSERT ON obligations
  FOR EACH ROW EXECUTE FUNCTION fos_obligation_no_duplicate();
