import { type Static, Type } from 'typebox';
import { Nullable, ResourceId, Timestamp } from '../../lib/schemas.ts';

export const EmbedKeySchema = Type.Object(
  {
    id: Type.String(),
    tenant_id: Type.String(),
    name: Type.String(),
    allowed_origins: Type.Array(Type.String()),
    jwks_url: Nullable(Type.String()),
    secret_masked: Type.String(),
    previous_secret_valid_until: Nullable(Timestamp),
    created_by: Type.String(),
    created_at: Timestamp,
    rotated_at: Nullable(Timestamp),
  },
  { title: 'EmbedKey' },
);
export type EmbedKeyView = Static<typeof EmbedKeySchema>;

export const CreatedEmbedKeySchema = Type.Object(
  { ...EmbedKeySchema.properties, secret: Type.String({ description: 'The HS256 signing secret: shown once, by create and rotate' }) },
  { title: 'CreatedEmbedKey' },
);

export const CreateEmbedKeyBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    allowed_origins: Type.Array(Type.String({ minLength: 1, maxLength: 300 }), {
      minItems: 1,
      maxItems: 20,
      description: 'Origins whose pages may frame the embedded pages (CSP frame-ancestors)',
    }),
    jwks_url: Type.Optional(
      Nullable(Type.String({ minLength: 1, maxLength: 2000, description: 'https:// JWKS of the keys signing RS256/ES256 embed tokens' })),
    ),
  },
  { additionalProperties: false },
);
export type NewEmbedKey = Static<typeof CreateEmbedKeyBody>;

export const KeyParams = Type.Object({ id: ResourceId });
export const DashboardParams = Type.Object({ id: ResourceId });
export const WidgetParams = Type.Object({ id: ResourceId, wid: ResourceId });

const Value = Type.Union([Type.String({ maxLength: 200 }), Type.Array(Type.String({ maxLength: 200 }), { maxItems: 100 })]);
export const WidgetChoicesBody = Type.Union([
  Type.Object(
    {
      granularity: Type.Optional(Type.String({ maxLength: 20 })),
      filters: Type.Optional(Type.Record(Type.String({ pattern: '^[a-z_][a-z0-9_]{0,99}$' }), Value)),
    },
    { additionalProperties: false },
  ),
  Type.Null(),
]);

export const EmbeddedDashboardSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    description: Nullable(Type.String()),
    locked_filters: Type.Record(Type.String(), Value),
    widgets: Type.Array(
      Type.Object({
        id: Type.String(),
        title: Type.String(),
        widget_type: Type.String(),
        display_size: Type.String(),
        insight_code: Type.String(),
        granularity: Nullable(Type.String()),
        filters: Type.Array(Type.String()),
        chart_hint_override: Type.Unknown(),
      }),
    ),
  },
  { title: 'EmbeddedDashboard' },
);
/** A dashboard as an embedded page draws it: live widgets only, and the filters it may not change. */
export type EmbeddedDashboard = Static<typeof EmbeddedDashboardSchema>;
