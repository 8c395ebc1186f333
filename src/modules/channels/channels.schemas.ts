import { type Static, Type } from 'typebox';
import { CHANNEL_TYPES } from '../../adapters/delivery/types.ts';
import { Timestamp } from '../../lib/schemas.ts';

export const ChannelTypeSchema = Type.Enum([...CHANNEL_TYPES], { description: 'messenger, webhook or email' });

const Config = Type.Record(Type.String({ maxLength: 64 }), Type.String({ maxLength: 2048 }), {
  maxProperties: 10,
  description:
    'Keys by type: messenger bot_token + chat_id; email email; webhook webhook_url (https) and, optionally, signing_secret (whsec_…, generated when absent). Secrets are returned masked.',
});

export const ChannelSchema = Type.Object(
  {
    id: Type.String(),
    channel_type: ChannelTypeSchema,
    config: Type.Record(Type.String(), Type.String(), {
      description:
        'Secrets (bot_token, signing_secret) masked; a webhook signing_secret is shown in plaintext once, in the answer to its creation',
    }),
    is_verified: Type.Boolean({ description: 'true after a successful test; reset by a PATCH of config' }),
    created_at: Timestamp,
  },
  { title: 'NotificationChannel', description: 'A notification channel' },
);
export type ChannelView = Static<typeof ChannelSchema>;

export const CreateChannelBody = Type.Object({ channel_type: ChannelTypeSchema, config: Config }, { additionalProperties: false });

export const PatchChannelBody = Type.Object(
  {
    config: Type.Record(Type.String({ maxLength: 64 }), Type.String({ maxLength: 2048 }), {
      maxProperties: 10,
      description: 'Replaces the config whole; a secret sent back masked keeps the stored one',
    }),
  },
  { additionalProperties: false },
);

export const ChannelTestResultSchema = Type.Object(
  {
    success: Type.Boolean(),
    message: Type.String(),
    latency_ms: Type.Union([Type.Number(), Type.Null()]),
  },
  { title: 'ChannelTestResult' },
);
export type ChannelTestResult = Static<typeof ChannelTestResultSchema>;
