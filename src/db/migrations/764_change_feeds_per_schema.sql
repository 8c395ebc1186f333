-- The change feeds of migrations 040, 730 and 731 announce which schema's table changed. NOTIFY
-- channels belong to the whole database: deployments (or test runs) in other schemas of the same
-- database heard each other's changes and emptied their caches for nothing. A listener now acts on
-- its own schema's announcements (and on an empty one, from an instance not yet upgraded).
CREATE OR REPLACE FUNCTION insights_api_tokens_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('insights_api_tokens', TG_TABLE_SCHEMA);
  RETURN NULL;
END;
$$;
CREATE OR REPLACE FUNCTION insights_dashboards_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('insights_dashboards', TG_TABLE_SCHEMA);
  RETURN NULL;
END;
$$;
CREATE OR REPLACE FUNCTION insights_ai_connectors_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('insights_ai_connectors', TG_TABLE_SCHEMA);
  RETURN NULL;
END;
$$;
