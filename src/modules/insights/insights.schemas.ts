import { SemanticQuerySchema } from '../../semantic/query/query.schema.ts';
import { INSIGHT_KINDS } from '../../semantic/types.ts';
import { type Static, Type } from 'typebox';
import { CellSchema as Cell, ChartHintSchema, CompareSchema, filterQueryParams } from '../../lib/chart.schemas.ts';

// One chart hint for the whole API, so the catalog's and execute's hints are the widgets' type.
const ChartHint = ChartHintSchema;

export const CatalogEntrySchema = Type.Object(
  {
    code: Type.String(),
    name: Type.String(),
    description: Type.String(),
    kind: Type.Enum([...INSIGHT_KINDS], { description: 'timeseries, breakdown, top, kpi or cohort' }),
    granularities: Type.Array(Type.String()),
    default_granularity: Type.Union([Type.String(), Type.Null()]),
    filters: Type.Array(Type.String()),
    parameters: Type.Array(Type.String(), { description: 'Query parameters execute accepts for this insight' }),
    measures: Type.Array(Type.Object({ name: Type.String(), label: Type.String(), type: Type.String() })),
    dimensions: Type.Array(Type.Object({ name: Type.String(), label: Type.String() })),
    default_limit: Type.Union([Type.Integer(), Type.Null()]),
    chart_hint: ChartHint,
    synonyms: Type.Array(Type.String(), { description: 'Other words for it, from the model' }),
  },
  { title: 'Insight' },
);
/**
 * What GET /api/v1/insights lists, as the engine builds it from the model's definitions. A
 * granularity or a column type is a string here, wider than the definitions': a reader of the
 * catalog takes what it lists.
 */
export type CatalogEntry = Static<typeof CatalogEntrySchema>;

export const FilterOptionsSchema = Type.Object(
  {
    name: Type.String({ description: 'The execute parameter (country)' }),
    label: Type.String({ description: 'Its title in the model' }),
    values: Type.Array(Type.String(), { description: "Its values in the caller's data, sorted (only those containing q when given)" }),
    listed: Type.Boolean({ description: 'False when no breakdown of the model lists this dimension: any value may be typed' }),
    member: Type.Optional(
      Type.String({ description: 'The dimension it stands for (cube.dimension): a query widget takes it when its measures reach it' }),
    ),
  },
  { title: 'FilterOptions' },
);

export const FilterOptionsQuery = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 100, description: 'Only this filter dimension' })),
    q: Type.Optional(Type.String({ maxLength: 100, description: 'Only values containing this text (any case)' })),
  },
  { additionalProperties: false },
);

export const ExecuteData = Type.Object({
  insight_code: Type.String(),
  insight_name: Type.String(),
  granularity: Type.Union([Type.String(), Type.Null()]),
  filters: Type.Record(Type.String(), Type.Union([Type.String(), Type.Array(Type.String())]), {
    description: "A filter's value, or its values when several were given",
  }),
  period: Type.Object({ from: Type.String(), to: Type.String() }),
  compare: Type.Optional(CompareSchema),
  previous_period: Type.Optional(
    Type.Object({ from: Type.String(), to: Type.String() }, { description: 'With compare: the window the rows were compared with' }),
  ),
  columns: Type.Array(
    Type.Object({
      name: Type.String(),
      type: Type.String({ description: 'date, string, integer, money, percent (4.98 is 4.98 %), number, boolean: from the model' }),
      label: Type.String(),
      currency: Type.Optional(Type.String({ description: "A money column's ISO 4217 code, from the measure's format" })),
      decimals: Type.Optional(Type.Integer({ description: "Decimals to show, from the measure's format" })),
    }),
  ),
  rows: Type.Array(Type.Record(Type.String(), Cell)),
  chart_hint: ChartHint,
  row_count: Type.Integer(),
  generated_at: Type.String(),
  cached: Type.Boolean(),
  query: Type.Optional(SemanticQuerySchema),
});
/** What the insight engine returns (ExecuteResponse.data of docs/product.md §6): widgets, chat, MCP and reports read it. */
export type ExecuteResult = Static<typeof ExecuteData>;

export const ExecuteResponse = Type.Object({ success: Type.Literal(true), data: ExecuteData }, { title: 'ExecuteResponse' });

/**
 * The execute query string: the parameters every insight shares, and one per filter dimension of
 * the model (country, channel, category in the demo), so OpenAPI lists them and an unknown one is
 * refused by name. Which of them a given insight takes, the service checks.
 */
export function executeQuerySchema(filters: { name: string; label: string }[]) {
  return Type.Object(
    {
      granularity: Type.Optional(Type.String({ description: 'day, week (ISO, Monday), month, quarter, year' })),
      date_from: Type.Optional(Type.String({ description: 'YYYY-MM-DD, inclusive, UTC' })),
      date_to: Type.Optional(Type.String({ description: 'YYYY-MM-DD, inclusive, UTC' })),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
      compare: Type.Optional(CompareSchema),
      ...filterQueryParams(filters),
    },
    { additionalProperties: false },
  );
}

// Codes are printable ASCII without spaces; anything else names no insight (404, like an unknown code).
export const CodeParams = Type.Object({ code: Type.String({ pattern: '^[\\x21-\\x7e]{1,100}$' }) });
