-- Every change to dashboards (through the API, a widget added or removed, an edit by hand, a
-- truncate) is announced on the channel insights_dashboards, once per statement and only when it
-- commits. Every instance keeps the dashboards it read in memory and empties that memory on the
-- announcement (src/db/change-cache.ts, docs/performance.md), as for api_tokens (migration 040).
CREATE OR REPLACE FUNCTION insights_dashboards_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('insights_dashboards', '');
  RETURN NULL;
END;
$$;
CREATE TRIGGER dashboards_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON dashboards
  FOR EACH STATEMENT EXECUTE FUNCTION insights_dashboards_changed();
