import { type Static, Type } from 'typebox';
import { CHANNEL_TYPES } from '../../adapters/delivery/types.ts';
import { Nullable, Timestamp } from '../../lib/schemas.ts';

export const ChannelTypeSchema = Type.Enum([...CHANNEL_TYPES], { description: 'messenger, webhook, email, slack, teams or google_chat' });

const Config = Type.Record(Type.String({ maxLength: 64 }), Type.String({ maxLength: 2048 }), {
  maxProperties: 10,
  description:
    'Keys by type: messenger bot_token + chat_id; email email; webhook webhook_url (https) and, optionally, ' +
    'signing_secret (whsec_…, generated when absent); slack, teams and google_chat webhook_url (the incoming ' +
    'webhook, http(s), a secret). Secrets are returned masked.',
});

/** An extension of the contract (docs/decisions.md "Channel names"): what people call the channel. */
const Name = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: '\\S',
  description: 'What people call the channel ("Sales team on Slack"); leading and trailing spaces are dropped',
});

export const ChannelSchema = Type.Object(
  {
    id: Type.String(),
    name: Nullable(Type.String({ description: "The channel's name; null when it has none (an extension of the contract)" })),
    channel_type: ChannelTypeSchema,
    config: Type.Record(Type.String(), Type.String(), {
      description:
        'Secrets (bot_token, signing_secret, and the webhook_url of slack, teams and google_chat) masked; a webhook ' +
        'signing_secret is shown in plaintext once, in the answer to its creation',
    }),
    is_verified: Type.Boolean({ description: 'true after a successful test; reset by a PATCH of config' }),
    created_at: Timestamp,
  },
  { title: 'NotificationChannel', description: 'A notification channel' },
);
export type ChannelView = Static<typeof ChannelSchema>;

export const CreateChannelBody = Type.Object(
  { channel_type: ChannelTypeSchema, config: Config, name: Type.Optional(Name) },
  { additionalProperties: false },
);

export const PatchChannelBody = Type.Object(
  {
    name: Type.Optional(Nullable(Name)),
    config: Type.Optional(
      Type.Record(Type.String({ maxLength: 64 }), Type.String({ maxLength: 2048 }), {
        maxProperties: 10,
        description: 'Replaces the config whole (and resets is_verified); a secret sent back masked keeps the stored one',
      }),
    ),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    description: 'config, name or both; a change of name alone keeps is_verified; name null removes it',
  },
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
