import { type Static, Type } from 'typebox';
import { Nullable, Timestamp } from '../../lib/schemas.ts';
import { PROVIDERS } from '../../adapters/llm/types.ts';

export const ProviderSchema = Type.Enum([...PROVIDERS], { description: 'AI provider code' });

export const ConnectorSchema = Type.Object(
  {
    provider: ProviderSchema,
    api_key_masked: Type.String({ description: 'first 4 + **** + last 4; **** when shorter than 12' }),
    is_active: Type.Boolean(),
    created_at: Timestamp,
    model: Nullable(Type.String()),
    model_label: Nullable(Type.String()),
    base_url: Nullable(Type.String({ description: 'custom provider only' })),
  },
  { title: 'AIConnector' },
);
export type ConnectorView = Static<typeof ConnectorSchema>;

const ApiKey = Type.String({ minLength: 1, maxLength: 512, description: 'plaintext; stored encrypted, never returned' });
const Model = Type.String({ minLength: 1, maxLength: 200 });
const BaseUrl = Type.String({ minLength: 1, maxLength: 2000, description: 'custom provider only: the OpenAI-compatible API root' });

export const SaveConnectorBody = Type.Object(
  { provider: ProviderSchema, api_key: ApiKey, model: Type.Optional(Model), base_url: Type.Optional(BaseUrl) },
  { additionalProperties: false },
);
export type ConnectorInput = Static<typeof SaveConnectorBody>;

export const TestConnectorBody = Type.Object(
  { provider: ProviderSchema, api_key: ApiKey, model: Model, base_url: Type.Optional(BaseUrl) },
  { additionalProperties: false },
);

export const PatchConnectorBody = Type.Object({ is_active: Type.Boolean() }, { additionalProperties: false });

export const ProviderParams = Type.Object({ provider: ProviderSchema });

export const ConnectorTestResult = Type.Object(
  {
    success: Type.Boolean(),
    message: Type.String(),
    latency_ms: Nullable(Type.Number()),
  },
  { title: 'AIConnectorTestResponse' },
);
export type ConnectionTest = Static<typeof ConnectorTestResult>;
