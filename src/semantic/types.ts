// The semantic layer at run time: insights resolved from the model file (models/*.yml) into what
// the compiler and the service need. Nothing here names a table or a column of the demo shop.
import type { ModelLanguage } from './model.schema.ts';

// The vocabulary the API shares (granularities, chart types) is defined once, in the kernel.
import type { ChartType, Granularity } from '../lib/chart.schemas.ts';
export { CHART_TYPES, GRANULARITIES, type ChartType, type Granularity } from '../lib/chart.schemas.ts';

export type ColumnType = 'date' | 'string' | 'integer' | 'money' | 'percent' | 'number' | 'boolean';

/**
 * timeseries: one row per period (zero-filled); breakdown: one row per dimension value over the
 * window; top: the best `limit` rows of a breakdown; kpi: the window against the previous one.
 */
export const INSIGHT_KINDS = ['timeseries', 'breakdown', 'top', 'kpi', 'cohort'] as const;
export type InsightKind = (typeof INSIGHT_KINDS)[number];

/**
 * A measure's moving window (`rolling_window`, docs/model.md "Time intelligence"): for each period,
 * the rows of the N units ending with it, of every earlier period too, or of its year, quarter or
 * month so far.
 */
export type RollingWindow =
  | { kind: 'trailing'; n: number; unit: Granularity }
  | { kind: 'unbounded' }
  | { kind: 'to_date'; granularity: Granularity };

export interface OutputColumn {
  name: string;
  /** The model member behind the column ("cube.member"), where there is one. */
  ref?: string;
  type: ColumnType;
  label: string;
  /** A money column's ISO 4217 code, from the measure's `currency`. */
  currency?: string;
  /** Decimals shown, from the measure's `decimals`. */
  decimals?: number;
}

export interface ChartDefault {
  type: ChartType;
  x_axis: string;
  y_axis?: string[];
  series?: string;
  title?: string;
}

/** An aggregate over one cube's rows, its SQL already qualified ("cube"."column"). */
export interface LeafMeasure {
  /** The measure's name in its cube (a rollup's partials are named by it). */
  name: string;
  /** "cube.measure": the column it is computed as. */
  ref: string;
  agg: 'count' | 'count_distinct' | 'sum' | 'avg' | 'min' | 'max';
  /** Absent for count(*). */
  sql?: string;
  /** Row conditions; each becomes part of FILTER (WHERE …), or of WHERE when all measures share it. */
  filters: string[];
  /** Aggregated over a moving window of periods instead of each period alone (compile-rolling.ts). */
  rolling?: RollingWindow;
}

/** A `number` measure: SQL text and references ("cube.measure") to measures, evaluated on the aggregated row. */
export type NumberToken = string | { measure: string };

/**
 * Row-level access of a cube (`access_filters`): its rows are those whose dimension equals one of
 * the caller's values of the attribute.
 */
export interface AccessFilter {
  attribute: string;
  /** The dimension's qualified SQL over the cube's own columns. */
  sql: string;
  /** "cube.dimension": a rollup answers only when it holds this dimension. */
  ref: string;
}

/** A caller's attributes: name → the values it may see (one or more). */
export type Attributes = Readonly<Record<string, readonly string[]>>;

/** Where a cube's rows come from; `tenantRefs` of derived SQL are replaced by tenant-scoped reads. */
export interface CubeSource {
  alias: string;
  /** `"orders"` or `"analytics"."orders"` */
  table?: string;
  /** Derived cube: SQL text with tenant-scoped reads of other cubes spliced in by the compiler. */
  derived?: DerivedSql;
  /** Qualified tenant column, e.g. "orders"."tenant_id". */
  tenant: string;
  /** Row-level access filters of the cube, applied wherever it is read. */
  access?: AccessFilter[];
}

/** A table as a cube reads it: `schema.table` unquoted, the cube, its tenant column unquoted. */
export interface TableUse {
  table: string;
  cube: string;
  tenantColumn: string;
}

/** Derived SQL as parts: text, and reads of a table restricted to the caller's tenant. */
export type DerivedSql = (string | { table: string; tenantColumn: string; alias?: string; access?: AccessFilter[] })[];

export interface JoinStep {
  source: CubeSource;
  /** The ON condition, qualified. */
  on: string;
}

/** One cube whose measures an insight aggregates, with everything its query needs. */
export interface FactPlan {
  cube: string;
  source: CubeSource;
  /** many_to_one joins, parents before children: joined rows never multiply the fact's rows. */
  joins: JoinStep[];
  /** The time dimension's expression; absent when the query names none (its whole data, ungrouped by time). */
  time?: string;
  /** A filtered dimension as asked ("cube.dimension") → the qualified expression compared with the caller's values. */
  filters: Record<string, string>;
  /** Grouping dimensions in output order, each named as asked ("cube.dimension"). */
  keys: { name: string; sql: string }[];
  segments: string[];
  measures: LeafMeasure[];
  /** The model dimensions behind time, filters and keys ("cube.dimension"): rollups match on them. */
  refs: { time: string; filters: Record<string, string>; keys: string[] };
}

/** One partial aggregate a rollup stores for a leaf measure, and how a query combines it again. */
export interface RollupPartial {
  column: string;
  agg: 'sum' | 'count' | 'min' | 'max';
}

/**
 * A rollup (`pre_aggregations` of a cube): a table of the service's own schema holding, per tenant,
 * time bucket and dimension values, additive partial aggregates of leaf measures.
 */
export interface RollupDefinition {
  /** "cube.name" */
  id: string;
  cube: string;
  name: string;
  /** Qualified table of the service's rollup schema. */
  table: string;
  granularity: Granularity;
  partitionGranularity?: Granularity;
  refreshEverySeconds?: number;
  /** The fact's source and the many_to_one joins its dimensions and measure filters need. */
  source: CubeSource;
  joins: JoinStep[];
  /** The fact's time expression and its model dimension. */
  time: { ref: string; sql: string; column?: string };
  dimensions: { ref: string; column: string; sql: string }[];
  /** Leaf measures by name (of the cube), with their partial columns. */
  measures: Map<string, { leaf: LeafMeasure; partials: RollupPartial[] }>;
  /** Row counts per measure filter set ("" = every row), for the compiler's shared WHERE filters. */
  rowCounts: { filters: string[]; column: string }[];
  /** Warehouse tables the build reads. */
  tables: string[];
  /** Changes with anything that changes the table's contents: a stored build is outdated then. */
  definitionHash: string;
}

export interface QueryPlan {
  facts: FactPlan[];
  /** number measures ("cube.measure"), in dependency order. */
  numbers: { name: string; tokens: NumberToken[] }[];
  /** The measure ordered by (top, breakdown) and compared (kpi), by its name in its cube. */
  headline: string;
}

/** How a caller's filter value is checked and normalized. */
export interface FilterRule {
  name: string;
  label: string;
  case?: 'upper' | 'lower';
  values?: string[];
  pattern?: RegExp;
}

/** A ratio measure of the form k × a / b, so a window's rate is read as the ratio of the sums. */
export interface RatioInfo {
  name: string;
  numerator: string;
  denominator: string;
  scale?: number;
}

/** One insight of the catalog, resolved against the model's cubes. */
export interface InsightDefinition {
  code: string;
  name: string;
  description: string;
  kind: InsightKind;
  granularities: Granularity[];
  defaultGranularity?: Granularity;
  /** Filter parameters, named by their dimension. */
  filters: string[];
  /** Filter parameter → the dimension it filters ("cube.dimension"). */
  filterRefs: Record<string, string>;
  filterRules: Record<string, FilterRule>;
  /** breakdown with default_limit, top: the limit parameter. */
  limit?: { default: number; max: number };
  chart: ChartDefault;
  /** Output measure columns (the insight's measures, then the parts of its number measures). */
  measures: OutputColumn[];
  dimensions: OutputColumn[];
  ratios: RatioInfo[];
  /** kind cohort: the entity followed ("cube.dimension") and the period of cohorts. */
  cohort?: { entity: string; granularity: Granularity };
  synonyms: string[];
  /** The model's synonyms per language, when it gives them so (chat reads other languages with them). */
  localizedSynonyms?: Partial<Record<ModelLanguage, string[]>>;
  /** Measure and dimension titles the model gives per language, by member name. */
  localizedTitles: Record<string, Partial<Record<ModelLanguage, string>>>;
  /**
   * Warehouse tables the insight reads, each with the cube that reads it and that cube's tenant
   * column (a missing table is DATA_NOT_LOADED; a table without that column, DATA_MODEL_MISMATCH).
   */
  tables: TableUse[];
  plan: QueryPlan;
}
