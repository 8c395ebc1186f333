-- Every change to api_tokens (a revocation, an edit or a delete by hand, a truncate) is announced
-- on the channel insights_api_tokens, once per statement and only when it commits. Every instance
-- keeps verified API tokens in memory and empties that memory on the announcement, so a revoked
-- token stops working on every instance at once (docs/performance.md).
CREATE OR REPLACE FUNCTION insights_api_tokens_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('insights_api_tokens', '');
  RETURN NULL;
END;
$$;
CREATE TRIGGER api_tokens_changed AFTER UPDATE OR DELETE OR TRUNCATE ON api_tokens
  FOR EACH STATEMENT EXECUTE FUNCTION insights_api_tokens_changed();
