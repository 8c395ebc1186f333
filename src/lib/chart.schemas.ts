// Analytics vocabulary shared by dashboards, widgets, insights and chat (docs/product.md §6): one
// definition, so a chart hint produced by the insight engine always validates as a widget's.
import { Type, type Static } from 'typebox';

export const CHART_TYPES = ['line', 'bar', 'stacked_bar', 'area', 'pie', 'scatter', 'table', 'kpi'] as const;
export type ChartType = (typeof CHART_TYPES)[number];
export const ChartTypeSchema = Type.Enum([...CHART_TYPES], { title: 'ChartType', description: 'Chart type' });

export const GRANULARITIES = ['day', 'week', 'month', 'quarter', 'year'] as const;
export type Granularity = (typeof GRANULARITIES)[number];
export const GranularitySchema = Type.Enum([...GRANULARITIES], {
  title: 'Granularity',
  description: 'Time granularity (week = ISO week, Monday)',
});

/** compare on execute, widgets, presets, subscriptions and chat (docs/insights.md "Comparisons"). */
export const COMPARES = ['previous_period', 'previous_year'] as const;
export type CompareKind = (typeof COMPARES)[number];
export const CompareSchema = Type.Enum([...COMPARES], {
  description:
    'Each row gains <measure>_previous and <measure>_change_pct against the previous period of equal length, or the ' +
    'same period a year before',
});
/** Relative date ranges of dashboards and presets, resolved against today (docs/web.md "Filter bar"). */
export const RELATIVE_RANGES = [
  'last_7_days',
  'last_30_days',
  'this_month',
  'last_month',
  'this_quarter',
  'last_quarter',
  'year_to_date',
] as const;
export type RelativeRange = (typeof RELATIVE_RANGES)[number];
export const RelativeRangeSchema = Type.Enum([...RELATIVE_RANGES], {
  description:
    'A window relative to today (UTC), resolved when the data is read: last_7_days and last_30_days end today; ' +
    'this_month, this_quarter and year_to_date run from the period start to today; last_month and last_quarter ' +
    'are the whole calendar period before',
});
/** At most this many values per filter (`country=DE&country=FR`: any of them). */
export const MAX_FILTER_VALUES = 20;

/**
 * One query parameter per filter of the model, repeated for several values (country=DE&country=FR:
 * any of them); one value is a list of one. The execute query and the dashboard filter query take the same.
 */
export function filterQueryParams(filters: readonly { name: string; label: string }[]) {
  return Object.fromEntries(
    filters.map((f) => [
      f.name,
      Type.Optional(
        Type.Array(Type.String({ maxLength: 200 }), {
          maxItems: MAX_FILTER_VALUES,
          description: `Filter: ${f.label}; repeat it for several values`,
        }),
      ),
    ]),
  );
}

export const CountrySchema = Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2, upper case' });
export const IsoDateSchema = Type.String({ format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD (UTC)' });

export const ChartHintSchema = Type.Object(
  {
    type: ChartTypeSchema,
    x_axis: Type.String({ maxLength: 200 }),
    y_axis: Type.Optional(Type.Array(Type.String({ maxLength: 200 }), { maxItems: 50 })),
    series: Type.Optional(Type.String({ maxLength: 200 })),
    title: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { title: 'ChartHint', additionalProperties: false, description: 'How to draw rows as a chart' },
);
export type ChartHint = Static<typeof ChartHintSchema>;

/** One cell of a result row: what execute, widgets, chat and reports carry. */
export const CellSchema = Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]);
export type Cell = Static<typeof CellSchema>;
export const DataRowSchema = Type.Record(Type.String(), CellSchema, { title: 'DataRow', description: 'Column name → value' });
export type DataRow = Static<typeof DataRowSchema>;
