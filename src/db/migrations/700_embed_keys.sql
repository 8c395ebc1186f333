-- Embedding keys (docs/embedding.md): a tenant's SaaS backend signs embed tokens with one. The
-- HS256 secret must be read back to verify signatures, so it is sealed with the master key (as AI
-- keys and bot tokens are), never hashed; a rotation keeps the previous secret until its grace ends.
CREATE TABLE embed_keys (
  id                      text PRIMARY KEY,
  tenant_id               text NOT NULL,
  name                    text NOT NULL,
  allowed_origins         text[] NOT NULL,
  jwks_url                text,
  secret_sealed           text NOT NULL,
  secret_hint             text NOT NULL,
  previous_secret_sealed  text,
  previous_valid_until    timestamptz,
  created_by              text NOT NULL,
  created_at              timestamptz NOT NULL,
  rotated_at              timestamptz
);
CREATE INDEX embed_keys_tenant_idx ON embed_keys (tenant_id, created_at DESC);
