-- Notification channels. config holds the non-secret keys in plaintext (chat_id, email,
-- webhook_url); secrets holds the secret ones (bot_token, signing_secret) sealed with the master
-- key (AES-256-GCM), so a database dump reveals no credential. config_version counts PATCHes, so a
-- test that started before a PATCH cannot mark the new config verified.
CREATE TABLE notification_channels (
  id              text PRIMARY KEY,
  tenant_id       text NOT NULL,
  created_by      text NOT NULL,
  channel_type    text NOT NULL CHECK (channel_type IN ('messenger', 'webhook', 'email')),
  config          jsonb NOT NULL,
  secrets         jsonb NOT NULL DEFAULT '{}'::jsonb,
  config_version  integer NOT NULL DEFAULT 1,
  is_verified     boolean NOT NULL DEFAULT false,
  verified_at     timestamptz,
  created_at      timestamptz NOT NULL,
  updated_at      timestamptz NOT NULL
);
CREATE INDEX notification_channels_tenant_idx ON notification_channels (tenant_id, id DESC);
