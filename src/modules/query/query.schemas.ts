// The semantic query API's answers (docs/query.md): POST /api/v1/query and GET /api/v1/model.
import { Type, type Static } from 'typebox';
import { CellSchema } from '../../lib/chart.schemas.ts';
import { SemanticQuerySchema } from '../../semantic/query/query.schema.ts';
import { CatalogEntrySchema } from '../insights/insights.schemas.ts';

export const QueryColumnSchema = Type.Object(
  {
    name: Type.String({ description: 'The member ("cube.member"); a measure compared adds "<measure>.previous"' }),
    type: Type.String({ description: 'date, string, integer, money, percent (4.98 is 4.98 %), number, boolean: from the model' }),
    label: Type.String(),
    currency: Type.Optional(Type.String({ description: "A money column's ISO 4217 code" })),
    decimals: Type.Optional(Type.Integer({ description: 'Decimals to show' })),
  },
  { title: 'QueryColumn' },
);
export type QueryColumn = Static<typeof QueryColumnSchema>;

export const QueryResultSchema = Type.Object(
  {
    columns: Type.Array(QueryColumnSchema),
    rows: Type.Array(Type.Record(Type.String(), CellSchema), {
      description: 'Keyed by member; a time period is its first day (YYYY-MM-DD) under the time dimension',
    }),
    query: SemanticQuerySchema,
    total_rows: Type.Integer({ minimum: 0, description: 'Rows of the answer before offset and limit' }),
  },
  { title: 'QueryResult' },
);
export type QueryResult = Static<typeof QueryResultSchema>;

export const QueryResponse = Type.Object({ data: QueryResultSchema }, { title: 'QueryResponse' });

const Titles = Type.Record(Type.String(), Type.String(), {
  description: 'The title per language (en, de, fr, es), when the model gives it so',
});
const Synonyms = Type.Array(Type.String());

export const ModelMeasureSchema = Type.Object({
  name: Type.String({ description: 'cube.measure, as a query names it' }),
  title: Type.String(),
  titles: Type.Optional(Titles),
  description: Type.Optional(Type.String()),
  aggregation: Type.String({ description: 'count, count_distinct, sum, avg, min, max or number (over other measures)' }),
  format: Type.String({ description: 'integer, number, money or percent' }),
  currency: Type.Optional(Type.String()),
  decimals: Type.Optional(Type.Integer()),
  synonyms: Synonyms,
});

export const ModelDimensionSchema = Type.Object({
  name: Type.String({ description: 'cube.dimension, as a query names it' }),
  title: Type.String(),
  titles: Type.Optional(Titles),
  description: Type.Optional(Type.String()),
  type: Type.String({ description: 'time, string, number or boolean' }),
  format: Type.Optional(Type.String()),
  synonyms: Synonyms,
  values_listable: Type.Boolean({ description: 'GET /api/v1/model/dimensions/{member}/values lists its values (not a time dimension)' }),
  values: Type.Optional(Type.Array(Type.String(), { description: 'The only values it takes, when the model says so' })),
});

export const ModelCubeSchema = Type.Object({
  name: Type.String(),
  title: Type.String(),
  description: Type.Optional(Type.String()),
  measures: Type.Array(ModelMeasureSchema),
  dimensions: Type.Array(ModelDimensionSchema),
  segments: Type.Array(
    Type.Object({ name: Type.String({ description: 'cube.segment' }), title: Type.String(), description: Type.Optional(Type.String()) }),
  ),
  joins: Type.Array(
    Type.Object({
      cube: Type.String(),
      relationship: Type.String({ description: 'many_to_one: the joined cube is reachable from this one' }),
    }),
  ),
});

export const ModelDescriptionSchema = Type.Object(
  { cubes: Type.Array(ModelCubeSchema), insights: Type.Array(CatalogEntrySchema) },
  { title: 'ModelDescription' },
);
export type ModelDescription = Static<typeof ModelDescriptionSchema>;

export const ModelResponse = Type.Object({ data: ModelDescriptionSchema }, { title: 'ModelResponse' });

export const MemberParams = Type.Object({
  member: Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]*\\.[A-Za-z_][A-Za-z0-9_]*$', description: 'cube.dimension' }),
});
export const ValuesQuery = Type.Object(
  { q: Type.Optional(Type.String({ maxLength: 200, description: 'Only values containing this text (any case)' })) },
  { additionalProperties: false },
);
