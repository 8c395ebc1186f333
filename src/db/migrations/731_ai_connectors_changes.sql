-- Every change to ai_connectors (saved, switched on or off, deleted through the API, an edit by hand,
-- a truncate) is announced on the channel insights_ai_connectors, once per statement and only when
-- it commits. Every instance keeps each tenant's active connector in memory and empties that memory
-- on the announcement (src/db/change-cache.ts, docs/performance.md), as for api_tokens (040).
CREATE OR REPLACE FUNCTION insights_ai_connectors_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('insights_ai_connectors', '');
  RETURN NULL;
END;
$$;
CREATE TRIGGER ai_connectors_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ai_connectors
  FOR EACH STATEMENT EXECUTE FUNCTION insights_ai_connectors_changed();
