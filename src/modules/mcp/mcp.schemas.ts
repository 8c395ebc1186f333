// What the MCP tools answer (their outputSchema, which clients check structuredContent against) and
// what the HTTP route takes and gives. The pieces are the REST API's own schemas wherever REST has
// the same thing (chart hints, rows, the catalog entry, the chat's structured query, dashboards).
import { Type, type Static } from 'typebox';
import { ChartHintSchema, CompareSchema, DataRowSchema } from '../../lib/chart.schemas.ts';
import { Nullable } from '../../lib/schemas.ts';
import { StructuredQuerySchema } from '../chat/chat.schemas.ts';
import { CatalogEntrySchema } from '../insights/insights.schemas.ts';
import { ModelCubeSchema, QueryColumnSchema } from '../query/query.schemas.ts';
import { SemanticQuerySchema } from '../../semantic/query/query.schema.ts';

/** A result column; `unit` says what a number is when the model gives the column a format. */
export const ColumnSchema = Type.Object({
  name: Type.String(),
  label: Type.String(),
  type: Type.String({ description: "date, string, integer, number, money or percent (the model's format)" }),
  unit: Type.Optional(
    Type.String({
      description:
        '"%" for percent columns; "currency" for money columns (amounts in the data\'s own currency, which the model does not name)',
    }),
  ),
});
export type Column = Static<typeof ColumnSchema>;

const Window = Type.Object({ from: Type.String(), to: Type.String() });

/** run_insight: ExecuteResponse.data of the REST API, with units, the insight's kind and today's date. */
export const InsightResultSchema = Type.Object({
  insight_code: Type.String(),
  insight_name: Type.String(),
  kind: Type.String({ description: 'timeseries, breakdown, top, kpi or cohort' }),
  granularity: Nullable(Type.String()),
  filters: Type.Record(Type.String(), Type.Union([Type.String(), Type.Array(Type.String())])),
  period: Window,
  compare: Type.Optional(CompareSchema),
  previous_period: Type.Optional(Window),
  columns: Type.Array(ColumnSchema),
  rows: Type.Array(DataRowSchema),
  chart_hint: ChartHintSchema,
  row_count: Type.Integer(),
  generated_at: Type.String(),
  today: Type.String({ description: "The server's date (UTC) the default windows end on" }),
});
export type InsightResult = Static<typeof InsightResultSchema>;

export const AskResultSchema = Type.Object({
  reply_text: Type.String({ description: "The chat's reply, in the question's language" }),
  history_id: Type.String({ description: 'Pass it back with the next question to follow up ("and in France?")' }),
  insight_code: Nullable(Type.String()),
  query: Nullable(StructuredQuerySchema),
  answered_by: Type.String(),
  language: Type.String(),
  alternatives: Type.Array(StructuredQuerySchema),
  columns: Type.Array(ColumnSchema),
  rows: Type.Array(DataRowSchema),
  chart_hint: ChartHintSchema,
});
export type AskResult = Static<typeof AskResultSchema>;

export const CatalogResultSchema = Type.Object({
  insights: Type.Array(Type.Object({ ...CatalogEntrySchema.properties, measures: Type.Array(ColumnSchema) })),
});

const FilterDescription = Type.Object({
  name: Type.String(),
  label: Type.String(),
  insights: Type.Array(Type.String(), { description: 'The insights that take this filter' }),
  values: Type.Optional(
    Type.Array(Type.String(), { description: 'The values it takes: declared by the model, or found in your data when few' }),
  ),
  values_from: Type.Optional(Type.String({ description: '"model" or "data"' })),
  pattern: Type.Optional(Type.String({ description: 'A regular expression every value must match' })),
  case: Type.Optional(Type.String({ description: 'upper or lower: values are put in this case before they are compared' })),
});

export const ModelDescriptionSchema = Type.Object({
  today: Type.String({ description: "The server's date (UTC)" }),
  granularities: Type.Array(Type.Object({ name: Type.String(), description: Type.String() })),
  compare: Type.Array(Type.Object({ name: Type.String(), description: Type.String() })),
  kinds: Type.Array(Type.Object({ name: Type.String(), description: Type.String() })),
  filters: Type.Array(FilterDescription),
  measures: Type.Array(
    Type.Object({ ...ColumnSchema.properties, description: Type.Optional(Type.String()), insights: Type.Array(Type.String()) }),
  ),
  dimensions: Type.Array(Type.Object({ name: Type.String(), label: Type.String(), insights: Type.Array(Type.String()) })),
  cubes: Type.Array(ModelCubeSchema, {
    description: "Every member the query tool may name: each cube's measures, dimensions (time ones too), segments and joins",
  }),
});

/** The query tool: POST /api/v1/query's answer, columns with units. */
export const QueryToolResultSchema = Type.Object({
  columns: Type.Array(Type.Object({ ...QueryColumnSchema.properties, unit: Type.Optional(Type.String()) })),
  rows: Type.Array(DataRowSchema),
  query: SemanticQuerySchema,
  total_rows: Type.Integer(),
  today: Type.String({ description: "The server's date (UTC) the default windows end on" }),
});

const DashboardSummary = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Nullable(Type.String()),
  is_shared: Type.Boolean(),
  created_by: Type.String(),
  created_by_name: Type.String(),
  widget_count: Type.Integer(),
  updated_at: Type.String(),
});

export const DashboardListSchema = Type.Object({
  dashboards: Type.Array(DashboardSummary),
  next_cursor: Nullable(Type.String({ description: 'Pass it as cursor for the next page' })),
});

export const WidgetDataSchema = Type.Object({
  id: Type.String(),
  title: Type.String(),
  widget_type: Type.String(),
  display_size: Type.String(),
  data_source: Type.String(),
  insight_code: Nullable(Type.String()),
  chart_hint: Nullable(ChartHintSchema),
  granularity: Nullable(Type.String()),
  filters: Type.Record(Type.String(), Type.Union([Type.String(), Type.Array(Type.String())]), {
    description: "The filters the data ran with (the active preset and the widget's own)",
  }),
  period: Nullable(Window),
  columns: Type.Array(ColumnSchema),
  rows: Type.Array(DataRowSchema),
  generated_at: Nullable(Type.String()),
  error: Type.Optional(Type.Object({ code: Type.String(), detail: Type.String() }, { description: 'Why this widget has no data now' })),
});
export type WidgetData = Static<typeof WidgetDataSchema>;

export const DashboardResultSchema = Type.Object({
  dashboard: Type.Object({ ...DashboardSummary.properties, active_preset_id: Nullable(Type.String()) }),
  widgets: Type.Array(WidgetDataSchema),
});

export const WidgetAddedSchema = Type.Object({
  widget: Type.Object({
    id: Type.String(),
    dashboard_id: Type.String(),
    title: Type.String(),
    widget_type: Type.String(),
    display_size: Type.String(),
    data_source: Type.String(),
    snapshot_question: Nullable(Type.String()),
    created_at: Type.String(),
  }),
  result: InsightResultSchema,
});

// The HTTP route: one JSON-RPC message per POST (batches left the protocol in 2025-06-18).
export const JsonRpcMessageSchema = Type.Object(
  {
    jsonrpc: Type.Literal('2.0'),
    id: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Integer()])),
    method: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    params: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    result: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    error: Type.Optional(Type.Object({ code: Type.Integer(), message: Type.String(), data: Type.Optional(Type.Unknown()) })),
  },
  {
    additionalProperties: false,
    title: 'JsonRpcMessage',
    description: 'A JSON-RPC 2.0 request, notification or response of the Model Context Protocol',
  },
);

export const JsonRpcResponseSchema = Type.Object(
  {
    jsonrpc: Type.Literal('2.0'),
    id: Type.Union([Type.String(), Type.Integer(), Type.Null()]),
    result: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description: 'e.g. tools/list, or a tools/call result with content, structuredContent and isError',
      }),
    ),
    error: Type.Optional(Type.Object({ code: Type.Integer(), message: Type.String(), data: Type.Optional(Type.Unknown()) })),
  },
  { title: 'JsonRpcResponse', description: 'The answer to a JSON-RPC request of the Model Context Protocol' },
);
