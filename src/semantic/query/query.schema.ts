// The semantic query (docs/query.md): any measures of the model, grouped by any dimensions
// reachable from them, filtered, over a window. This one schema is what POST /api/v1/query takes,
// what chat, MCP and widgets build, and the static type every layer passes around.
import { Type, type Static } from 'typebox';
import { GranularitySchema, IsoDateSchema } from '../../lib/chart.schemas.ts';

const MemberName = Type.String({
  pattern: '^[A-Za-z_][A-Za-z0-9_]*\\.[A-Za-z_][A-Za-z0-9_]*$',
  description: 'A member of the model as cube.member (GET /api/v1/model lists them)',
});

export const FILTER_OPERATORS = [
  'equals',
  'not_equals',
  'contains',
  'not_contains',
  'starts_with',
  'gt',
  'gte',
  'lt',
  'lte',
  'between',
  'set',
  'not_set',
] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

export const QueryFilterSchema = Type.Object(
  {
    member: MemberName,
    operator: Type.Enum([...FILTER_OPERATORS], {
      description:
        'equals/not_equals: any of/none of values; contains/not_contains/starts_with: case-insensitive text; gt, gte, ' +
        'lt, lte: one value; between: two values, inclusive; set/not_set: no values',
    }),
    values: Type.Optional(
      Type.Array(Type.Union([Type.String({ maxLength: 500 }), Type.Number(), Type.Boolean()]), {
        maxItems: 1000,
        description: 'Numbers for numeric members and measures, YYYY-MM-DD dates for time dimensions, text otherwise',
      }),
    ),
  },
  { additionalProperties: false, title: 'QueryFilter' },
);
export type QueryFilter = Static<typeof QueryFilterSchema>;

export const QueryTimeSchema = Type.Object(
  {
    dimension: MemberName,
    granularity: Type.Optional(GranularitySchema),
    date_from: Type.Optional(IsoDateSchema),
    date_to: Type.Optional(IsoDateSchema),
  },
  { additionalProperties: false, title: 'QueryTime' },
);
export type QueryTime = Static<typeof QueryTimeSchema>;

export const QUERY_COMPARES = ['previous_period', 'previous_year'] as const;

export const SemanticQuerySchema = Type.Object(
  {
    measures: Type.Array(MemberName, { minItems: 1, maxItems: 20, description: '1–20 measures, cube.measure' }),
    dimensions: Type.Optional(
      Type.Array(MemberName, { maxItems: 10, description: '0–10 dimensions, each reachable from every measure through the joins' }),
    ),
    time: Type.Optional(QueryTimeSchema),
    filters: Type.Optional(Type.Array(QueryFilterSchema, { maxItems: 50 })),
    segments: Type.Optional(Type.Array(MemberName, { maxItems: 20 })),
    order: Type.Optional(
      Type.Array(
        Type.Object(
          { member: MemberName, direction: Type.Optional(Type.Enum(['asc', 'desc'], { default: 'asc' })) },
          { additionalProperties: false },
        ),
        { maxItems: 10 },
      ),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 10000, description: 'Rows to return, default 1,000' })),
    offset: Type.Optional(Type.Integer({ minimum: 0, description: 'Rows to skip' })),
    compare: Type.Optional(Type.Enum([...QUERY_COMPARES], { description: 'Adds <measure>.previous per measure' })),
  },
  { additionalProperties: false, title: 'SemanticQuery' },
);
export type SemanticQuery = Static<typeof SemanticQuerySchema>;
