// The model file format as TypeBox schemas: the loader validates a YAML document against them
// (Ajv, every error at once), and models/model.schema.json is generated from the same object, so
// editors complete exactly what the service accepts. Cross-references (a measure naming a cube,
// a join naming a cube) are checked afterwards in validate.ts, which the schema cannot express.
import { Type, type Static, type TSchema } from 'typebox';

const Identifier = Type.String({ pattern: '^[a-z_][a-z0-9_]*$', description: 'Lower-case identifier: [a-z_][a-z0-9_]*' });
const Sql = Type.String({
  minLength: 1,
  description: 'An SQL fragment of the warehouse; {CUBE} is the current cube, {other} a joined cube',
});
const Member = Type.String({ pattern: '^[a-z_][a-z0-9_]*\\.[a-z_][a-z0-9_]*$', description: 'cube.member' });
/** The languages chat reads and writes (ISO 639-1); a model may give titles and synonyms in each. */
export const MODEL_LANGUAGES = ['en', 'de', 'fr', 'es'] as const;
export type ModelLanguage = (typeof MODEL_LANGUAGES)[number];
const PerLanguage = <T extends TSchema>(value: T, description: string) =>
  Type.Object(Object.fromEntries(MODEL_LANGUAGES.map((l) => [l, Type.Optional(value)])), {
    additionalProperties: false,
    minProperties: 1,
    description,
  });
const SynonymList = Type.Array(Type.String({ minLength: 1 }));
const Synonyms = Type.Union([SynonymList, PerLanguage(SynonymList, 'Per language (en, de, fr, es)')], {
  description: 'Other words people use for it (chat): a list, or a list per language ({en: […], de: […]})',
});
const Title = Type.Union([Type.String({ minLength: 1 }), PerLanguage(Type.String({ minLength: 1 }), 'Per language (en, de, fr, es)')], {
  description:
    "What it is called: a string, or one per language ({en: Revenue, de: Umsatz, fr: Chiffre d'affaires, es: " +
    'Ventas}); responses use English, else the first given',
});

export type LocalText = string | Partial<Record<ModelLanguage, string>>;
export type LocalList = string[] | Partial<Record<ModelLanguage, string[]>>;

/** The text responses use: the string, or its English, else its first language. */
export function plainText(t: LocalText | undefined): string | undefined {
  if (t === undefined || typeof t === 'string') return t;
  return t.en ?? Object.values(t).find((x) => x !== undefined);
}

/** The text in every language the model gives it in. */
export function textsIn(t: LocalText | undefined): string[] {
  if (t === undefined) return [];
  return typeof t === 'string' ? [t] : Object.values(t).filter((x): x is string => Boolean(x));
}

/** The synonyms in every language the model gives them in. */
export function synonymsIn(s: LocalList | undefined): string[] {
  if (!s) return [];
  return Array.isArray(s) ? s : Object.values(s).flatMap((x) => x ?? []);
}
const Granularity = Type.Union([
  Type.Literal('day'),
  Type.Literal('week'),
  Type.Literal('month'),
  Type.Literal('quarter'),
  Type.Literal('year'),
]);
const Format = Type.Union([Type.Literal('money'), Type.Literal('percent'), Type.Literal('integer'), Type.Literal('number')], {
  description: 'How the value is shown; money and percent are rounded to 2 decimals',
});
const Currency = Type.String({
  pattern: '^[A-Z]{3}$',
  description: 'ISO 4217 code of a money measure (EUR, USD): figures read with its symbol',
});
const Decimals = Type.Integer({
  minimum: 0,
  maximum: 6,
  description: 'Decimals shown (default: money 2, percent 1, integer 0, number up to 2)',
});
const ChartType = Type.Union(
  ['line', 'bar', 'stacked_bar', 'area', 'pie', 'scatter', 'table', 'kpi'].map((t) => Type.Literal(t)),
  { description: 'The chart_hint type' },
);

export const JoinSchema = Type.Object(
  {
    name: Identifier,
    relationship: Type.Literal('many_to_one'),
    sql: Sql,
  },
  { additionalProperties: false },
);

/** Cube's rolling_window (docs/model.md "Time intelligence"): a moving window instead of each period alone. */
export const RollingWindowSchema = Type.Union(
  [
    Type.Object(
      {
        trailing: Type.String({
          pattern: '^\\s*(unbounded|\\d+\\s+(day|week|month|quarter|year)s?)\\s*$',
          description: '"3 month": the 3 months ending with each period, that period included; "unbounded": every row up to its end',
        }),
      },
      { additionalProperties: false },
    ),
    Type.Object(
      {
        type: Type.Literal('to_date'),
        granularity: Type.Union([Type.Literal('year'), Type.Literal('quarter'), Type.Literal('month')]),
      },
      { additionalProperties: false, description: "From the start of each period's year, quarter or month" },
    ),
  ],
  {
    description:
      'A moving window: the measure aggregates, for each period, the rows of the window ending with it (timeseries ' +
      'and time-grouped queries)',
  },
);
export type RollingWindowDef = Static<typeof RollingWindowSchema>;

export const MeasureSchema = Type.Object(
  {
    name: Identifier,
    type: Type.Union(['count', 'count_distinct', 'sum', 'avg', 'min', 'max', 'number'].map((t) => Type.Literal(t))),
    sql: Type.Optional(Sql),
    rolling_window: Type.Optional(RollingWindowSchema),
    title: Type.Optional(Title),
    description: Type.Optional(Type.String()),
    filters: Type.Optional(Type.Array(Type.Object({ sql: Sql }, { additionalProperties: false }))),
    format: Type.Optional(Format),
    currency: Type.Optional(Currency),
    decimals: Type.Optional(Decimals),
    synonyms: Type.Optional(Synonyms),
  },
  { additionalProperties: false },
);

export const DimensionSchema = Type.Object(
  {
    name: Identifier,
    type: Type.Union(['time', 'string', 'number', 'boolean'].map((t) => Type.Literal(t))),
    sql: Sql,
    title: Type.Optional(Title),
    description: Type.Optional(Type.String()),
    format: Type.Optional(Format),
    synonyms: Type.Optional(Synonyms),
    case: Type.Optional(
      Type.Union([Type.Literal('upper'), Type.Literal('lower')], {
        description: 'Filter values are trimmed and put in this case before they are compared',
      }),
    ),
    values: Type.Optional(
      Type.Array(Type.String({ minLength: 1 }), { minItems: 1, description: 'The only values a filter on it accepts' }),
    ),
    pattern: Type.Optional(Type.String({ minLength: 1, description: 'A regular expression a filter value must match' })),
    value_synonyms: Type.Optional(
      Type.Record(Type.String({ minLength: 1 }), Synonyms, {
        description: 'Other words people use for a value (chat): {web: [website, online shop]}, a list or a list per language',
      }),
    ),
  },
  { additionalProperties: false },
);

export const SegmentSchema = Type.Object(
  { name: Identifier, sql: Sql, title: Type.Optional(Type.String()), description: Type.Optional(Type.String()) },
  { additionalProperties: false },
);

export const AccessFilterSchema = Type.Object(
  {
    dimension: Identifier,
    attribute: Type.String({
      pattern: '^[A-Za-z_][A-Za-z0-9_]*$',
      description: "The caller's attribute (API token, JWT or embed token) whose value or values the dimension must equal",
    }),
  },
  {
    additionalProperties: false,
    description: "Row-level access: only rows whose dimension equals one of the caller's values of the attribute (docs/model.md)",
  },
);

const CubeMember = Type.String({
  pattern: '^([a-zA-Z_][a-z0-9_]*\\.)?[a-z_][a-z0-9_]*$',
  description: 'A member of this cube (name or CUBE.name), or cube.name of a cube joined many_to_one',
});

export const PreAggregationSchema = Type.Object(
  {
    name: Identifier,
    type: Type.Optional(Type.Literal('rollup')),
    measures: Type.Array(CubeMember, {
      minItems: 1,
      description: 'Measures of this cube: sum, count, min, max, avg, or number measures made of them',
    }),
    dimensions: Type.Optional(
      Type.Array(CubeMember, { description: 'Dimensions a query may group or filter by and still be answered from the rollup' }),
    ),
    time_dimension: CubeMember,
    granularity: Granularity,
    partition_granularity: Type.Optional(Granularity),
    refresh_every: Type.Optional(
      Type.String({
        pattern: '^\\s*\\d+\\s*(second|minute|hour|day)s?\\s*$',
        description: 'e.g. "1 hour": how often the server rebuilds it (for data that changes outside the service)',
      }),
    ),
  },
  { additionalProperties: false },
);

export const CubeSchema = Type.Object(
  {
    name: Identifier,
    sql_table: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)?$',
        description: 'A table of the warehouse (schema.table allowed)',
      }),
    ),
    sql: Type.Optional(
      Type.String({ minLength: 1, description: 'A derived cube: a SELECT that reads other cubes as {cube}; it must select tenant_column' }),
    ),
    tenant_column: Type.String({
      pattern: '^[A-Za-z_][A-Za-z0-9_]*$',
      description: 'The column holding the tenant id; every query is restricted to the caller',
    }),
    title: Type.Optional(Type.String()),
    description: Type.Optional(Type.String()),
    joins: Type.Optional(Type.Array(JoinSchema)),
    measures: Type.Optional(Type.Array(MeasureSchema)),
    dimensions: Type.Optional(Type.Array(DimensionSchema)),
    segments: Type.Optional(Type.Array(SegmentSchema)),
    pre_aggregations: Type.Optional(
      Type.Array(PreAggregationSchema, {
        description: 'Rollups: pre-aggregated tables that answer queries exactly when they can (docs/rollups.md)',
      }),
    ),
    access_filters: Type.Optional(
      Type.Array(AccessFilterSchema, {
        description:
          "Row-level access: every query reading this cube keeps only the rows the caller's attributes allow; a " +
          'caller without the attribute sees none',
      }),
    ),
  },
  { additionalProperties: false },
);

export const InsightSchema = Type.Object(
  {
    code: Identifier,
    name: Type.Optional(Type.String({ minLength: 1 })),
    description: Type.Optional(Type.String()),
    kind: Type.Union(['timeseries', 'breakdown', 'top', 'kpi', 'cohort'].map((t) => Type.Literal(t))),
    measures: Type.Optional(
      Type.Array(Member, { minItems: 1, description: 'cube.measure; the first is the headline (every kind but cohort)' }),
    ),
    entity: Type.Optional(
      Type.Union([Member], {
        description: "cohort: the dimension whose values are followed (a customer id); an entity's first period with rows is its cohort",
      }),
    ),
    granularity: Type.Optional(Type.Union([Granularity], { description: 'cohort: the period of cohorts and of the periods since' })),
    time_dimension: Type.Union([Member, Type.Array(Member, { minItems: 1 })], {
      description: 'cube.dimension of type time; a list names one per cube when the measures come from cubes without a join',
    }),
    dimension: Type.Optional(Member),
    dimensions: Type.Optional(Type.Array(Member, { minItems: 1, description: 'Several grouping dimensions (breakdown, top)' })),
    granularities: Type.Optional(Type.Array(Granularity, { minItems: 1 })),
    default_granularity: Type.Optional(Granularity),
    filters: Type.Optional(Type.Array(Member, { description: 'Dimensions a caller may filter on (equality), named by the dimension' })),
    segments: Type.Optional(Type.Array(Member, { description: 'cube.segment: row filters always applied' })),
    default_limit: Type.Optional(Type.Integer({ minimum: 1 })),
    max_limit: Type.Optional(Type.Integer({ minimum: 1 })),
    chart: Type.Optional(
      Type.Object(
        {
          type: ChartType,
          x_axis: Type.Optional(Type.String()),
          y_axis: Type.Optional(Type.Array(Type.String(), { minItems: 1 })),
          series: Type.Optional(Type.String()),
          title: Type.Optional(Type.String()),
        },
        { additionalProperties: false },
      ),
    ),
    synonyms: Type.Optional(Synonyms),
  },
  { additionalProperties: false },
);

export const ModelFileSchema = Type.Object(
  {
    cubes: Type.Optional(Type.Array(CubeSchema)),
    insights: Type.Optional(Type.Array(InsightSchema)),
  },
  { additionalProperties: false },
);

export type JoinDef = Static<typeof JoinSchema>;
export type MeasureDef = Static<typeof MeasureSchema>;
export type DimensionDef = Static<typeof DimensionSchema>;
export type SegmentDef = Static<typeof SegmentSchema>;
export type CubeDef = Static<typeof CubeSchema>;
export type PreAggregationDef = Static<typeof PreAggregationSchema>;
export type InsightDef = Static<typeof InsightSchema>;
export type ModelFile = Static<typeof ModelFileSchema>;

/** The JSON Schema document shipped as models/model.schema.json. */
export function modelJsonSchema(): Record<string, unknown> {
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: 'https://insights.example/model.schema.json',
    title: 'Insights semantic model',
    description: 'Cubes (measures, dimensions, joins, segments) and the insights the API offers. See docs/model.md.',
    ...JSON.parse(JSON.stringify(ModelFileSchema)),
  };
}
