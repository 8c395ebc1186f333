-- Slack, Microsoft Teams and Google Chat channels (docs/channels.md): each posts to an incoming
-- webhook whose URL is the credential, so it is kept in `secrets` (sealed), never in `config`.
ALTER TABLE notification_channels DROP CONSTRAINT notification_channels_channel_type_check;
ALTER TABLE notification_channels ADD CONSTRAINT notification_channels_channel_type_check
  CHECK (channel_type IN ('messenger', 'webhook', 'email', 'slack', 'teams', 'google_chat'));
