-- User attributes of an API token for the model's row-level access filters (docs/model.md):
-- {"store_id": ["42"]}. NULL: the token carries none.
ALTER TABLE api_tokens ADD COLUMN attributes jsonb;
