-- A live widget may hold a semantic query (docs/query.md) instead of an insight code: any measures
-- of the model by any dimensions, run on every refresh like an insight.
ALTER TABLE dashboard_widgets ADD COLUMN query jsonb;
