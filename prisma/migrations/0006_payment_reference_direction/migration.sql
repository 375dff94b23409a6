-- Payment references (ISO 11649 RF creditor references) on every obligation, and the
-- direction of observed payments (incoming = money received, outgoing = money paid).
--
-- fos_rf_reference(body) is the same computation as lib/payment-references/rf.ts
-- (rfReference): 98 - ((body || 'RF00' with letters as 10..35) mod 97), two digits.
CREATE OR REPLACE FUNCTION fos_rf_reference(body text) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT AS $$
DECLARE
  s text := upper(body) || 'RF00';
  r integer := 0;
  c integer;
  v integer;
BEGIN
  FOR i IN 1..length(s) LOOP
    c := ascii(substr(s, i, 1));
    IF c BETWEEN 48 AND 57 THEN
      r := (r * 10 + (c - 48)) % 97;
    ELSE
      v := c - 55;
      r := (r * 100 + v) % 97;
    END IF;
  END LOOP;
  RETURN 'RF' || lpad((98 - r)::text, 2, '0') || upper(body);
END;
$$;

ALTER TABLE obligations ADD COLUMN payment_reference text NOT NULL DEFAULT '';
-- Backfill from the reference body: OBL-7K3M9Q2XBC -> RFnn7K3M9Q2XBC.
UPDATE obligations
   SET payment_reference = fos_rf_reference(regexp_replace(regexp_replace(reference, '[^A-Za-z0-9]', '', 'g'), '^OBL', '', 'i'))
 WHERE payment_reference = '';
CREATE UNIQUE INDEX obligations_org_payment_reference_key ON obligations (organization_id, payment_reference);

ALTER TABLE payments ADD COLUMN direction text NOT NULL DEFAULT 'incoming';
ALTER TABLE payments ADD CONSTRAINT payments_direction_check CHECK (direction IN ('incoming', 'outgoing'));
