-- Insight subscriptions take the insight's other filters (a value or a list each) and a comparison
-- (docs/notifications.md "Filters and comparisons"); `country` stays the contract's own field.
ALTER TABLE insight_subscriptions
  ADD COLUMN filters jsonb,
  ADD COLUMN compare text CHECK (compare IN ('previous_period', 'previous_year'));
