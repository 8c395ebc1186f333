-- The starter dashboard made for a tenant ("Start here", docs/web.md "First run"): one row per
-- tenant once it was made, so a re-seed of the demo data makes no second copy, and a starter the
-- people of the tenant deleted is not put back behind their backs. dashboard_id is NULL while it is
-- being made (the row is the claim that keeps two makers from racing).
CREATE TABLE starter_dashboards (
  tenant_id     text PRIMARY KEY,
  dashboard_id  text,
  created_at    timestamptz NOT NULL
);
