-- The scheduler's sweep (lib/scheduler/sweep.ts) moves obligations.next_scheduled_on of every
-- obligation it visits, and nothing else of the row; no projection shows that column. Such an
-- update leaves the revision alone, so the sweep no longer makes the next list compute and
-- store again the texts of the obligations it visited (lib/obligations/stored-projection.ts).
-- Any other update bumps it as before, including a touch that changes no column (the part
-- and context triggers of migration 0015). A change of version (every mutation through the
-- API) bumps it without comparing the rows.
CREATE OR REPLACE FUNCTION fos_obligation_projection_rev() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.next_scheduled_on IS DISTINCT FROM NEW.next_scheduled_on AND OLD.version = NEW.version THEN
    IF (to_jsonb(OLD) - 'next_scheduled_on') = (to_jsonb(NEW) - 'next_scheduled_on') THEN
      RETURN NEW;
    END IF;
  END IF;
  NEW.projection_rev := OLD.projection_rev + 1;
  RETURN NEW;
END;
$$;
