-- Stored list projections (lib/obligations/stored-projection.ts): GET /obligations answers
-- each obligation with the projection text stored beside its row while that text is still
-- what the terms engine would compute, instead of loading the parts and evaluating every row.
--
--   projection        the obligation projection's JSON text (key order as on the wire; NULL: none)
--   projection_format the code's format number it was written with (a deploy that changes the
--                     wire shape bumps it, which makes every stored text stale at once)
--   projection_from / projection_until
--                     the UTC days for which the text holds (payable_minor and due_minor change
--                     on the days a payment term triggers or falls due)
--   projection_rev    bumped by every change of the obligation or of what its projection shows
--                     (conditions, payment terms, context links, linked contexts); a text is
--                     stored only at the revision it was computed from
--
-- All four are nullable or defaulted: adding them rewrites nothing.
ALTER TABLE obligations
  ADD COLUMN projection text,
  ADD COLUMN projection_format integer,
  ADD COLUMN projection_from date,
  ADD COLUMN projection_until date,
  ADD COLUMN projection_rev integer NOT NULL DEFAULT 0;

-- Any update of an obligation clears its stored projection and bumps its revision, except
-- the update that stores one (it changes the projection columns and keeps the revision it
-- was computed at; a concurrent change has bumped it, so a stale text finds no row).
CREATE FUNCTION fos_obligation_projection_guard() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.projection IS NOT NULL AND NEW.projection_rev = OLD.projection_rev
     AND (NEW.projection, NEW.projection_format, NEW.projection_from, NEW.projection_until)
         IS DISTINCT FROM (OLD.projection, OLD.projection_format, OLD.projection_from, OLD.projection_until) THEN
    RETURN NEW;
  END IF;
  NEW.projection := NULL;
  NEW.projection_rev := OLD.projection_rev + 1;
  RETURN NEW;
END;
$$;
CREATE TRIGGER obligations_projection_guard BEFORE UPDATE ON obligations
  FOR EACH ROW EXECUTE FUNCTION fos_obligation_projection_guard();

-- A change of a part the projection shows touches the obligation's row (through the guard
-- above), unless this transaction has already written that row: then its revision has moved
-- already, or the row is new (registration writes the obligation and its parts in one
-- statement) and nobody can have read it.
CREATE FUNCTION fos_obligation_part_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  changed uuid := CASE WHEN TG_OP = 'DELETE' THEN OLD.obligation_id ELSE NEW.obligation_id END;
BEGIN
  UPDATE obligations SET projection = NULL WHERE id = changed AND xmin <> pg_current_xact_id()::xid;
  IF TG_OP = 'UPDATE' AND OLD.obligation_id IS DISTINCT FROM NEW.obligation_id THEN
    UPDATE obligations SET projection = NULL WHERE id = OLD.obligation_id AND xmin <> pg_current_xact_id()::xid;
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
  UPDATE obligations o SET projection = NULL
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
