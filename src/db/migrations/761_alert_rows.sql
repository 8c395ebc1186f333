-- Alerts per value (docs/notifications.md "Alerts per value"): which rows of a breakdown (or
-- series of a split time series) met the condition at the last slot, and at the slot before, so
-- notify on_change tells of a row when it starts to meet it. NULL until the first check.
ALTER TABLE insight_subscriptions
  ADD COLUMN last_met_keys     jsonb,
  ADD COLUMN previous_met_keys jsonb;
