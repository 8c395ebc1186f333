import { Type, type Static } from 'typebox';
import { ChartHintSchema, ChartTypeSchema, DataRowSchema, GranularitySchema } from '../../lib/chart.schemas.ts';
import { Nullable, ResourceId, Timestamp } from '../../lib/schemas.ts';
import { SemanticQuerySchema } from '../../semantic/query/query.schema.ts';

export const WIDGET_TYPES = ['chart', 'table', 'kpi'] as const;
export const DISPLAY_SIZES = ['small', 'medium', 'large', 'full'] as const;
export const DATA_SOURCES = ['live_insight', 'snapshot'] as const;
export type WidgetType = (typeof WIDGET_TYPES)[number];
export type DisplaySize = (typeof DISPLAY_SIZES)[number];
export type DataSource = (typeof DATA_SOURCES)[number];

const WidgetTypeSchema = Type.Enum([...WIDGET_TYPES]);
const DisplaySizeSchema = Type.Enum([...DISPLAY_SIZES]);
const DataSourceSchema = Type.Enum([...DATA_SOURCES], { description: 'Fixed at creation' });

export const ChartHintOverrideSchema = Type.Object(
  { chart_type: Type.Optional(ChartTypeSchema) },
  { title: 'ChartHintOverride', additionalProperties: false, description: 'chart_type wins over chart_hint.type when rendering' },
);
export type ChartHintOverride = Static<typeof ChartHintOverrideSchema>;

const WidgetFilters = Type.Record(Type.String(), Type.Unknown(), { description: "The widget's own filters" });
const IgnoredFilters = Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
  maxItems: 50,
  description:
    "Dashboard filters (the active preset's and the filter bar's) this widget does not take: filter dimension names, " +
    '`date` for the date range, `compare`',
});
const SnapshotData = Type.Array(DataRowSchema, { maxItems: 100_000 });
export const SnapshotColumnSchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200, description: "The rows' key" }),
    type: Type.String({ maxLength: 20, description: 'As in the execute response: date, string, integer, money, percent, number, boolean' }),
    label: Type.String({ maxLength: 200 }),
    currency: Type.Optional(Type.String({ maxLength: 3 })),
    decimals: Type.Optional(Type.Integer({ minimum: 0, maximum: 10 })),
  },
  { title: 'SnapshotColumn' },
);
export type SnapshotColumn = Static<typeof SnapshotColumnSchema>;
const SnapshotColumns = Type.Array(SnapshotColumnSchema, {
  maxItems: 200,
  description: "The snapshot's columns in order, as the answer had them (execute's or chat's columns); without them, the rows' keys",
});

export const WidgetSchema = Type.Object(
  {
    id: Type.String(),
    dashboard_id: Type.String(),
    title: Type.String(),
    widget_type: WidgetTypeSchema,
    display_size: DisplaySizeSchema,
    data_source: DataSourceSchema,
    insight_code: Nullable(Type.String()),
    query: Nullable(SemanticQuerySchema),
    granularity: Nullable(Type.String()),
    widget_filters: Nullable(WidgetFilters),
    ignored_filters: Nullable(IgnoredFilters),
    snapshot_data: Nullable(SnapshotData),
    snapshot_columns: Nullable(SnapshotColumns),
    snapshot_chart_hint: Nullable(ChartHintSchema),
    snapshot_question: Nullable(Type.String()),
    chart_hint: Nullable(ChartHintSchema),
    chart_hint_override: Nullable(ChartHintOverrideSchema),
    created_at: Timestamp,
    last_refreshed_at: Nullable(Timestamp),
  },
  { title: 'DashboardWidget', description: 'A widget of a dashboard' },
);
export type WidgetView = Static<typeof WidgetSchema>;

const Title = Type.String({ minLength: 1, maxLength: 200 });
const InsightCode = Type.String({ minLength: 1, maxLength: 100 });
const Question = Type.String({ maxLength: 5000 });

export const CreateWidgetBody = Type.Object(
  {
    title: Title,
    widget_type: WidgetTypeSchema,
    display_size: Type.Optional(DisplaySizeSchema),
    data_source: DataSourceSchema,
    insight_code: Type.Optional(Nullable(InsightCode)),
    // A live widget's semantic query (POST /api/v1/query), instead of an insight_code.
    query: Type.Optional(Nullable(SemanticQuerySchema)),
    granularity: Type.Optional(Nullable(GranularitySchema)),
    widget_filters: Type.Optional(Nullable(WidgetFilters)),
    ignored_filters: Type.Optional(Nullable(IgnoredFilters)),
    snapshot_data: Type.Optional(Nullable(SnapshotData)),
    snapshot_columns: Type.Optional(Nullable(SnapshotColumns)),
    snapshot_chart_hint: Type.Optional(Nullable(ChartHintSchema)),
    snapshot_question: Type.Optional(Nullable(Question)),
    chart_hint: Type.Optional(Nullable(ChartHintSchema)),
    chart_hint_override: Type.Optional(Nullable(ChartHintOverrideSchema)),
  },
  { additionalProperties: false },
);
export type CreateWidgetInput = Static<typeof CreateWidgetBody>;

// Every field of the create body, each optional. data_source is accepted only so that a client
// echoing the widget back gets a clear 400 when it differs (widgets.service.ts).
export const PatchWidgetBody = Type.Partial(CreateWidgetBody, { additionalProperties: false });
export type PatchWidgetInput = Static<typeof PatchWidgetBody>;

export const WidgetParams = Type.Object({
  id: ResourceId,
  wid: ResourceId,
});
