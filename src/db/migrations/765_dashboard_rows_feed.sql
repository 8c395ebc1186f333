-- Which dashboards changed, not only that some did: every instance keeps the dashboards it read in
-- memory (src/db/change-cache.ts), and with one announcement for the whole table a widget added on
-- any tenant's dashboard emptied every tenant's memory. Under a few tenants editing at once the
-- cache answered almost nothing (docs/performance.md §20).
--
-- The channel insights_dashboard_rows carries the schema, a tab, then a JSON array of
-- [tenant_id, id, visibility] for each row the statement inserted, updated or deleted: visibility is
-- true when the row may have entered or left someone's list (an insert, a delete, a change of
-- is_shared, shared_with_emails, created_by, tenant_id or id; a row moved to another tenant or id
-- is named as it was too). A statement that changed no row announces nothing.
-- A payload that would not fit NOTIFY's 8000 bytes, and a TRUNCATE, announce '*': everything.
-- Transition tables need one trigger per event. The announcement of migration 764 on
-- insights_dashboards stays, for instances not yet upgraded.
CREATE OR REPLACE FUNCTION insights_dashboard_rows_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed text;
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    PERFORM pg_notify('insights_dashboard_rows', TG_TABLE_SCHEMA || E'\t*');
    RETURN NULL;
  ELSIF TG_OP = 'INSERT' THEN
    SELECT json_agg(json_build_array(n.tenant_id, n.id, true))::text INTO changed FROM new_rows n;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT json_agg(json_build_array(o.tenant_id, o.id, true))::text INTO changed FROM old_rows o;
  ELSE
    -- Each row as it is now, and as it was where that row no longer is (its id or tenant changed):
    -- the lists of both tenants may have lost or gained it.
    SELECT json_agg(json_build_array(r.tenant_id, r.id, r.visibility))::text INTO changed FROM (
      SELECT n.tenant_id, n.id,
             o.id IS NULL
               OR n.tenant_id IS DISTINCT FROM o.tenant_id
               OR n.is_shared IS DISTINCT FROM o.is_shared
               OR n.shared_with_emails IS DISTINCT FROM o.shared_with_emails
               OR n.created_by IS DISTINCT FROM o.created_by AS visibility
        FROM new_rows n LEFT JOIN old_rows o ON o.id = n.id
      UNION ALL
      SELECT o.tenant_id, o.id, true
        FROM old_rows o LEFT JOIN new_rows n ON n.id = o.id
       WHERE n.id IS NULL OR n.tenant_id IS DISTINCT FROM o.tenant_id
    ) r;
  END IF;
  IF changed IS NULL THEN
    RETURN NULL;
  END IF;
  PERFORM pg_notify('insights_dashboard_rows',
    TG_TABLE_SCHEMA || E'\t' || CASE WHEN octet_length(changed) <= 7000 THEN changed ELSE '*' END);
  RETURN NULL;
END;
$$;

CREATE TRIGGER dashboard_rows_inserted AFTER INSERT ON dashboards
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION insights_dashboard_rows_changed();
CREATE TRIGGER dashboard_rows_updated AFTER UPDATE ON dashboards
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION insights_dashboard_rows_changed();
CREATE TRIGGER dashboard_rows_deleted AFTER DELETE ON dashboards
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION insights_dashboard_rows_changed();
CREATE TRIGGER dashboard_rows_truncated AFTER TRUNCATE ON dashboards
  FOR EACH STATEMENT EXECUTE FUNCTION insights_dashboard_rows_changed();
