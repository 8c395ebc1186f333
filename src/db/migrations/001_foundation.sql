-- API tokens: only the SHA-256 of the token is stored; the plaintext is shown once.
CREATE TABLE api_tokens (
  id          text PRIMARY KEY,
  tenant_id   text NOT NULL,
  name        text NOT NULL,
  user_id     text NOT NULL,
  user_name   text NOT NULL,
  email       text,
  role        text NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
  token_hash  text NOT NULL UNIQUE,
  token_hint  text NOT NULL,
  created_at  timestamptz NOT NULL,
  revoked_at  timestamptz
);
CREATE INDEX api_tokens_tenant_idx ON api_tokens (tenant_id, created_at DESC);

-- Small facts about this installation (e.g. whether the first owner token was printed).
CREATE TABLE app_state (
  key   text PRIMARY KEY,
  value jsonb NOT NULL
);
