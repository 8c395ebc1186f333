-- Dashboards and their widgets. Widget order lives in dashboards.widget_ids, so a reorder is one
-- UPDATE of one row (atomic) and adding/removing a widget updates the array in the same transaction.
CREATE TABLE dashboards (
  id                    text PRIMARY KEY,
  tenant_id             text NOT NULL,
  name                  text NOT NULL,
  description           text,
  created_by            text NOT NULL,
  created_by_name       text NOT NULL,
  is_shared             boolean NOT NULL DEFAULT false,
  -- Stored lower-cased: sharing by e-mail is case-insensitive.
  shared_with_emails    text[] NOT NULL DEFAULT '{}',
  widget_ids            text[] NOT NULL DEFAULT '{}',
  global_filter_presets jsonb NOT NULL DEFAULT '[]',
  active_preset_id      text,
  created_at            timestamptz NOT NULL,
  updated_at            timestamptz NOT NULL
);
CREATE INDEX dashboards_tenant_idx ON dashboards (tenant_id, id DESC);

CREATE TABLE dashboard_widgets (
  id                  text PRIMARY KEY,
  tenant_id           text NOT NULL,
  dashboard_id        text NOT NULL REFERENCES dashboards (id) ON DELETE CASCADE,
  title               text NOT NULL,
  widget_type         text NOT NULL CHECK (widget_type IN ('chart', 'table', 'kpi')),
  display_size        text NOT NULL CHECK (display_size IN ('small', 'medium', 'large', 'full')),
  data_source         text NOT NULL CHECK (data_source IN ('live_insight', 'snapshot')),
  insight_code        text,
  granularity         text,
  widget_filters      jsonb,
  snapshot_data       jsonb,
  snapshot_chart_hint jsonb,
  snapshot_question   text,
  chart_hint          jsonb,
  chart_hint_override jsonb,
  created_at          timestamptz NOT NULL,
  updated_at          timestamptz NOT NULL,
  last_refreshed_at   timestamptz
);
CREATE INDEX dashboard_widgets_dashboard_idx ON dashboard_widgets (dashboard_id);
CREATE INDEX dashboard_widgets_insight_idx ON dashboard_widgets (tenant_id, insight_code);
