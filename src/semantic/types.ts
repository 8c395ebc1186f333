// The vocabulary of the semantic layer: an insight is declared as data (source, measures,
// dimensions, granularities, filters, chart) and compiled to SQL per dialect.

export const GRANULARITIES = ['day', 'week', 'month', 'quarter', 'year'] as const;
export type Granularity = (typeof GRANULARITIES)[number];

export const CHART_TYPES = ['line', 'bar', 'stacked_bar', 'area', 'pie', 'scatter', 'table', 'kpi'] as const;
export type ChartType = (typeof CHART_TYPES)[number];

/** Filters a caller may set; each maps to a column of the insight's source. */
export const FILTERS = ['country', 'channel', 'category'] as const;
export type FilterName = (typeof FILTERS)[number];

export type ColumnType = 'date' | 'string' | 'integer' | 'money' | 'percent' | 'number';

/**
 * timeseries: one row per period (zero-filled); breakdown: one row per dimension value over the
 * window; kpi: one row comparing the window with the previous one.
 */
export type InsightKind = 'timeseries' | 'breakdown' | 'kpi';

/** A condition fixed by the definition; its value is still bound as a parameter. */
export interface Condition {
  column: string;
  in: string[];
}

/**
 * An aggregate over the source. `count` counts rows; `sum` sums `column` (or quantity × price
 * via `product`). `where` restricts the rows the aggregate sees (compiled to FILTER (WHERE …)).
 */
export interface MeasureDef {
  name: string;
  label: string;
  type: ColumnType;
  agg: 'sum' | 'count';
  column?: string;
  /** sum(a * b) */
  product?: [string, string];
  where?: Condition;
}

/** A measure computed from others of the same insight after aggregation. */
export interface RatioDef {
  name: string;
  label: string;
  type: 'money' | 'percent' | 'number';
  numerator: string;
  denominator: string;
  /** 100 for a percentage. */
  scale?: number;
}

export type SourceName = 'orders' | 'order_items' | 'first_orders' | 'web_sessions';

export interface SourceDef {
  name: SourceName;
  /**
   * FROM clause. `:tenant` stands for the caller's tenant, bound as a parameter; every table the
   * clause reads must be scoped by it (validation checks each table alias is).
   */
  from: string;
  /** Tenant columns restricted in WHERE (tables the FROM does not scope itself). */
  tenantScope: string[];
  /** A predicate with no values that always applies (e.g. picking the first row of a window). */
  fixedWhere?: string;
  /** Other `:name` placeholders of the FROM and their values, bound as parameters. */
  binds?: Record<string, string>;
  /** Logical column → qualified column, for measures and conditions. */
  columns: Record<string, string>;
  /** The time column, TIMESTAMP (orders) or DATE (web_sessions). */
  time: { column: string; type: 'timestamp' | 'date' };
  /** Filter name → qualified column. */
  filters: Partial<Record<FilterName, string>>;
  /** Dimension name → qualified column. */
  dimensions: Record<string, string>;
}

export interface DimensionRef {
  name: string;
  label: string;
  /** A key of the source's dimensions. */
  source: string;
  /** Default string. */
  type?: ColumnType;
}

export interface ChartDefault {
  type: ChartType;
  x_axis: string;
  y_axis?: string[];
  series?: string;
  title?: string;
}

export interface InsightDefinition {
  code: string;
  name: string;
  description: string;
  kind: InsightKind;
  source: SourceName;
  /** Rows the insight restricts to (compiled to WHERE, so scans can skip them). */
  where?: Condition[];
  measures: MeasureDef[];
  ratios?: RatioDef[];
  /** Breakdowns: the grouping dimensions. */
  dimensions?: DimensionRef[];
  /** A second source joined per period (conversion_rate: sessions). */
  secondary?: { source: SourceName; measures: MeasureDef[] };
  granularities: Granularity[];
  defaultGranularity?: Granularity;
  filters: FilterName[];
  /** Breakdowns: order of rows. */
  orderBy?: { column: string; direction: 'asc' | 'desc' };
  limit?: { default: number; max: number };
  chart: ChartDefault;
  /** The measure a KPI compares. */
  kpiMeasure?: string;
}

/** What GET /api/v1/insights lists. */
export interface CatalogEntry {
  code: string;
  name: string;
  description: string;
  kind: InsightKind;
  granularities: Granularity[];
  default_granularity: Granularity | null;
  filters: FilterName[];
  parameters: string[];
  measures: { name: string; label: string; type: ColumnType }[];
  dimensions: { name: string; label: string }[];
  default_limit: number | null;
  chart_hint: ChartDefault;
}
