-- A subscription's report is computed as its subscriber: the attributes (row-level access,
-- docs/model.md) of the credentials that created it. NULL: none.
ALTER TABLE insight_subscriptions ADD COLUMN subscriber_attributes jsonb;
ALTER TABLE dashboard_subscriptions ADD COLUMN subscriber_attributes jsonb;
