// The delivery log as the API shows it: the schema the route validates and documents, and the
// view the service builds (its Static<>), one source.
import { type Static, Type } from 'typebox';
import { CHANNEL_TYPES } from '../../adapters/delivery/types.ts';
import { Nullable, PageQuery, Timestamp } from '../../lib/schemas.ts';

export const DeliveryLogSchema = Type.Object(
  {
    id: Type.String(),
    subscription_id: Type.String(),
    subscription_kind: Type.Enum(['insight', 'dashboard']),
    insight_name: Type.String({ description: "The insight's name, or the dashboard's for a dashboard report" }),
    channel_id: Type.String(),
    channel_type: Type.Enum([...CHANNEL_TYPES]),
    sent_at: Timestamp,
    status: Type.Enum(['success', 'failed']),
    error_message: Nullable(Type.String()),
    attempt: Type.Integer({ minimum: 1, description: 'Which attempt of this delivery (1 … 5)' }),
  },
  { title: 'DeliveryLog' },
);
export type DeliveryLogView = Static<typeof DeliveryLogSchema>;

export const LogsQuery = Type.Object(
  {
    ...PageQuery,
    status: Type.Optional(Type.Enum(['success', 'failed'])),
    subscription_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  },
  { additionalProperties: false },
);
