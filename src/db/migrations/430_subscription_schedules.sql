-- Time zones, cron schedules, alert conditions and the dashboard PDF (docs/notifications.md).
-- schedule_time (and cron) are read in `timezone`; next_run_at stays a UTC instant.
ALTER TABLE insight_subscriptions
  ADD COLUMN timezone           text NOT NULL DEFAULT 'UTC',
  ADD COLUMN cron               text,
  -- {op, value, measure?}: the slot sends only when it holds for the insight's headline value.
  ADD COLUMN condition          jsonb,
  ADD COLUMN notify             text NOT NULL DEFAULT 'every_time' CHECK (notify IN ('every_time', 'on_change')),
  ADD COLUMN last_checked_at    timestamptz,
  ADD COLUMN last_condition_met boolean,
  -- The check before the last one: a retry of the same slot re-evaluates, and must compare with
  -- the state before that slot, not with its own first evaluation (notify = on_change).
  ADD COLUMN previous_condition_met boolean;

ALTER TABLE dashboard_subscriptions
  ADD COLUMN timezone   text NOT NULL DEFAULT 'UTC',
  ADD COLUMN cron       text,
  ADD COLUMN attach_pdf boolean NOT NULL DEFAULT true;

-- A slot whose alert condition does not hold ends 'skipped': nothing sent, no log row.
ALTER TABLE deliveries DROP CONSTRAINT deliveries_status_check;
ALTER TABLE deliveries ADD CONSTRAINT deliveries_status_check
  CHECK (status IN ('pending', 'running', 'succeeded', 'failed', 'cancelled', 'skipped'));
