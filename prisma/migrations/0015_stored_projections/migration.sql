-- Stored list projections (lib/obligations/stored-projection.ts): GET /obligations answers
-- each obligation with the projection text stored for it while that text is still what the
-- terms engine would compute, instead of loading the parts and evaluating every row.
--
-- The texts live in a table of their own, so the obligations heap stays as narrow as it was
-- (a text is ~1.6 kB, five times an obligation's row; scans of obligations would read them all).
--
--   obligations.projection_rev   bumped by every change of the obligation or of what its
--                                projection shows (conditions, payment terms, context links,
--                                linked contexts): the triggers below
--   obligation_projections.rev   the revision the text was computed at: the text holds only
--                                while it equals the obligation's, so a text computed before
--                                a concurrent change is never answered after it
--   format                       the code's format number (a deploy that changes the wire
--                                shape bumps it, which makes every stored text stale at once)
--   valid_from / valid_until     the UTC days for which the text holds (payable_minor and
--                                due_minor change on the days a payment term triggers or
--                                falls due)
ALTER TABLE obligations ADD COLUMN projection_rev integer NOT NULL DEFAULT 0;

CREATE TABLE obligation_projections (
  obligation_id   uuid PRIMARY KEY REFERENCES obligations(id) ON DELETE CASCADE,
  organization_id uuid NOT NULL,
  rev             integer NOT NULL,
  format          integer NOT NULL,
  valid_from      date NOT NULL,
  valid_until     date NOT NULL,
  projection      text NOT NULL
);

-- Every update of an obligation bumps its revision (the texts are stored elsewhere: no
-- update of obligations is a store).
CREATE FUNCTION fos_obligation_projection_rev() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW.projection_rev := OLD.projection_rev + 1;
  RETURN NEW;
END;
$$;
CREATE TRIGGER obligations_projection_rev BEFORE UPDATE ON obligations
  FOR EACH ROW EXECUTE FUNCTION fos_obligation_projection_rev();

-- A change of a part the projection shows touches the obligation's row (so its revision
-- moves), unless this transaction has already written that row: then its revision has moved
-- already, or the row is new (registration writes the obligation and its parts in one
-- statement) and nobody can have read it.
CREATE FUNCTION fos_obligation_part_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  changed uuid := CASE WHEN TG_OP = 'DELETE' THEN OLD.obligation_id ELSE NEW.obligation_id END;
BEGIN
  UPDATE obligations SET projection_rev = projection_rev WHERE id = changed AND xmin <> pg_current_xact_id()::xid;
  IF TG_OP = 'UPDATE' AND OLD.obligation_id IS DISTINCT FROM NEW.obligation_id THEN
    UPDATE obligations SET projection_rev = projection_rev WHERE id = OLD.obligation_id AND xmin <> pg_current_xact_id()::xid;
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER obligation_conditions_projection AFTER INSERT OR UPDATE OR DELETE ON obligation_conditions
  FOR EACH ROW EXECUTE FUNCTION fos_obligation_part_changed();
CREATE TRIGGER payment_terms_projection AFTER INSERT OR UPDATE OR DELETE ON payment_terms
  FOR EACH ROW EXECUTE FUNCTION fos_obligation_part_changed();
CREATE TRIGGER obligation_context_links_projection AFTER INSERT OR UPDATE OR DELETE ON obligation_context_links
  FOR EACH ROW EXECUTE FUNCTION fos_obligation_part_changed();

-- A linked context's fields that projections show (contexts[].type, kind, type_label, name,
-- reference): every obligation linked to it.
CREATE FUNCTION fos_business_context_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE obligations o SET projection_rev = o.projection_rev
    FROM obligation_context_links l
   WHERE l.organization_id = NEW.organization_id AND l.context_id = NEW.id
     AND o.id = l.obligation_id AND o.xmin <> pg_current_xact_id()::xid;
  RETURN NULL;
END;
$$;
CREATE TRIGGER business_contexts_projection AFTER UPDATE ON business_contexts
  FOR EACH ROW
  WHEN ((OLD.type, OLD.kind, OLD.type_label, OLD.name, OLD.reference) IS DISTINCT FROM (NEW.type, NEW.kind, NEW.type_label, NEW.name, NEW.reference))
  EXECUTE FUNCTION fos_business_context_changed();
