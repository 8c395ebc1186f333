-- AI connectors: one per (tenant, provider). The key is stored sealed (AES-256-GCM, "v1:iv:tag:ct")
-- under the master key; only its mask is kept in clear, for listing without opening the box.
CREATE TABLE ai_connectors (
  tenant_id      text NOT NULL,
  provider       text NOT NULL CHECK (provider IN ('vendor_a', 'vendor_b', 'vendor_c', 'router', 'custom')),
  api_key_sealed text NOT NULL,
  api_key_masked text NOT NULL,
  model          text,
  base_url       text,
  is_active      boolean NOT NULL DEFAULT false,
  created_at     timestamptz NOT NULL,
  updated_at     timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, provider)
);
-- At most one active connector per tenant, whatever the application does.
CREATE UNIQUE INDEX ai_connectors_one_active ON ai_connectors (tenant_id) WHERE is_active;

-- Chat conversations belong to one user of one tenant; last_query is what a follow-up changes.
CREATE TABLE chat_conversations (
  id          text PRIMARY KEY,
  tenant_id   text NOT NULL,
  user_id     text NOT NULL,
  last_query  jsonb,
  created_at  timestamptz NOT NULL,
  updated_at  timestamptz NOT NULL
);
CREATE INDEX chat_conversations_owner_idx ON chat_conversations (tenant_id, user_id, updated_at DESC);

CREATE TABLE chat_messages (
  id              text PRIMARY KEY,
  conversation_id text NOT NULL REFERENCES chat_conversations (id) ON DELETE CASCADE,
  tenant_id       text NOT NULL,
  role            text NOT NULL CHECK (role IN ('user', 'assistant')),
  content         text NOT NULL,
  insight_code    text,
  query           jsonb,
  answered_by     text,
  created_at      timestamptz NOT NULL
);
CREATE INDEX chat_messages_conversation_idx ON chat_messages (conversation_id, created_at);
