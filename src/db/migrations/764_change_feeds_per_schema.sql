-- The change feeds of migrations 040, 730 and 731 announce which schema's table changed. NOTIFY
-- channels belong to the whole database: deployments (or test runs) in other schemas of the same
-- database heard each other's changes and emptied their caches for nothing. A listener now acts on
-- its own schema's announcements (and on an empty one, from an instance not yet upgraded). One
-- function serves the three tables: the channel is insights_<table>, the payload the table's schema.
CREATE OR REPLACE FUNCTION insights_table_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('insights_' || TG_TABLE_NAME, TG_TABLE_SCHEMA);
  RETURN NULL;
END;
$$;

DROP TRIGGER api_tokens_changed ON api_tokens;
CREATE TRIGGER api_tokens_changed AFTER UPDATE OR DELETE OR TRUNCATE ON api_tokens
  FOR EACH STATEMENT EXECUTE FUNCTION insights_table_changed();
DROP FUNCTION insights_api_tokens_changed();

DROP TRIGGER dashboards_changed ON dashboards;
CREATE TRIGGER dashboards_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON dashboards
  FOR EACH STATEMENT EXECUTE FUNCTION insights_table_changed();
DROP FUNCTION insights_dashboards_changed();

DROP TRIGGER ai_connectors_changed ON ai_connectors;
CREATE TRIGGER ai_connectors_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ai_connectors
  FOR EACH STATEMENT EXECUTE FUNCTION insights_table_changed();
DROP FUNCTION insights_ai_connectors_changed();
