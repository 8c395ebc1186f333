-- Markdown text blocks of a dashboard (extension, docs/decisions.md): they sit in the dashboard's
-- layout beside its widgets, before the widget at `position` of widget_ids (at the end when
-- position is the number of widgets or more), and are not widgets (widget_type stays chart, table, kpi).
CREATE TABLE dashboard_text_blocks (
  id            text PRIMARY KEY,
  tenant_id     text NOT NULL,
  dashboard_id  text NOT NULL REFERENCES dashboards (id) ON DELETE CASCADE,
  body          text NOT NULL,
  display_size  text NOT NULL CHECK (display_size IN ('small', 'medium', 'large', 'full')),
  position      integer NOT NULL CHECK (position >= 0),
  created_at    timestamptz NOT NULL,
  updated_at    timestamptz NOT NULL
);
CREATE INDEX dashboard_text_blocks_dashboard_idx ON dashboard_text_blocks (tenant_id, dashboard_id);
