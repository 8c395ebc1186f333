import { type Static, Type } from 'typebox';
import { Nullable, Timestamp } from '../../lib/schemas.ts';

export const RoleSchema = Type.Union([Type.Literal('owner'), Type.Literal('admin'), Type.Literal('member')]);

/** User attributes for row-level access (docs/model.md): a name to its value or values. */
export const AttributesSchema = Type.Record(
  Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]{0,99}$' }),
  Type.Union([
    Type.String({ minLength: 1, maxLength: 200 }),
    Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { minItems: 1, maxItems: 100 }),
  ]),
  { maxProperties: 50, description: "User attributes for the model's access filters: a name to a value or a list of values" },
);

export const TokenSchema = Type.Object(
  {
    id: Type.String(),
    tenant_id: Type.String(),
    name: Type.String(),
    user_id: Type.String(),
    user_name: Type.String(),
    email: Nullable(Type.String()),
    role: RoleSchema,
    token_masked: Type.String(),
    created_at: Timestamp,
    revoked_at: Nullable(Timestamp),
    attributes: Nullable(Type.Record(Type.String(), Type.Array(Type.String()))),
  },
  { title: 'ApiToken' },
);
export type TokenView = Static<typeof TokenSchema>;

export const CreatedTokenSchema = Type.Object(
  {
    ...TokenSchema.properties,
    token: Type.String({ description: 'The plaintext token: shown once, never stored' }),
  },
  { title: 'CreatedApiToken' },
);

export const CreateTokenBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    user_id: Type.String({ minLength: 1, maxLength: 200 }),
    user_name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    email: Type.Optional(Type.String({ format: 'email', maxLength: 320 })),
    role: RoleSchema,
    attributes: Type.Optional(AttributesSchema),
  },
  { additionalProperties: false },
);
