-- Insight and dashboard subscriptions. next_run_at is the next slot to send (NULL while inactive);
-- the scheduler advances it in the same transaction that enqueues the slot's deliveries.
CREATE TABLE insight_subscriptions (
  id                    text PRIMARY KEY,
  tenant_id             text NOT NULL,
  created_by            text NOT NULL,
  insight_code          text NOT NULL,
  channel_id            text NOT NULL,
  -- A channel's type never changes (PATCH replaces its config only), so a copy cannot go stale.
  channel_type          text NOT NULL,
  schedule              text NOT NULL CHECK (schedule IN ('daily', 'weekly', 'monthly')),
  schedule_time         text NOT NULL,
  schedule_day_of_week  smallint CHECK (schedule_day_of_week BETWEEN 0 AND 6),
  schedule_day_of_month smallint CHECK (schedule_day_of_month BETWEEN 1 AND 31),
  granularity           text NOT NULL,
  country               text,
  is_active             boolean NOT NULL DEFAULT true,
  next_run_at           timestamptz,
  created_at            timestamptz NOT NULL
);
CREATE INDEX insight_subscriptions_tenant_idx ON insight_subscriptions (tenant_id, id DESC);
CREATE INDEX insight_subscriptions_channel_idx ON insight_subscriptions (tenant_id, channel_id);
CREATE INDEX insight_subscriptions_due_idx ON insight_subscriptions (next_run_at) WHERE is_active;

-- dashboard_name is not stored: it is read from the dashboard, so it follows renames.
CREATE TABLE dashboard_subscriptions (
  id                    text PRIMARY KEY,
  tenant_id             text NOT NULL,
  dashboard_id          text NOT NULL REFERENCES dashboards (id) ON DELETE CASCADE,
  created_by            text NOT NULL,
  channel_ids           text[] NOT NULL,
  schedule              text NOT NULL CHECK (schedule IN ('daily', 'weekly', 'monthly')),
  schedule_time         text NOT NULL,
  schedule_day_of_week  smallint CHECK (schedule_day_of_week BETWEEN 0 AND 6),
  schedule_day_of_month smallint CHECK (schedule_day_of_month BETWEEN 1 AND 31),
  is_active             boolean NOT NULL DEFAULT true,
  next_run_at           timestamptz,
  created_at            timestamptz NOT NULL
);
CREATE INDEX dashboard_subscriptions_tenant_idx ON dashboard_subscriptions (tenant_id, id DESC);
CREATE INDEX dashboard_subscriptions_dashboard_idx ON dashboard_subscriptions (dashboard_id);
CREATE INDEX dashboard_subscriptions_due_idx ON dashboard_subscriptions (next_run_at) WHERE is_active;
