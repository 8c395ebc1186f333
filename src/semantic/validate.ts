// Validates the whole catalog at once and reports every problem with its path, so a bad
// definition stops start-up with a complete list rather than failing one request at a time.
import { SOURCES } from './sources.ts';
import { outputColumns } from './compiler.ts';
import { CHART_TYPES, FILTERS, GRANULARITIES, type Condition, type InsightDefinition, type MeasureDef, type SourceDef } from './types.ts';

export interface CatalogIssue {
  path: string;
  message: string;
}

export class CatalogError extends Error {
  constructor(readonly issues: CatalogIssue[]) {
    super(`The insight catalog is invalid:\n${issues.map((i) => `  ${i.path}: ${i.message}`).join('\n')}`);
  }
}

const NAME = /^[a-z][a-z0-9_]*$/;

function checkSource(src: SourceDef, path: string, issues: CatalogIssue[]): void {
  const tables = (src.from.match(/\b(orders|order_items|products|customers|web_sessions)\b/g) ?? []).length;
  const scoped = (src.from.match(/:tenant\b/g) ?? []).length + src.tenantScope.length;
  if (scoped < tables) issues.push({ path: `${path}/from`, message: `reads ${tables} tables but scopes only ${scoped} by tenant` });
  for (const m of src.from.matchAll(/(?<![:\w]):([a-z_]+)\b/g)) {
    if (m[1] !== 'tenant' && src.binds?.[m[1]] === undefined) issues.push({ path: `${path}/from`, message: `placeholder :${m[1]} has no value` });
  }
}

function checkCondition(src: SourceDef, c: Condition, path: string, issues: CatalogIssue[]): void {
  if (!src.columns[c.column]) issues.push({ path: `${path}/column`, message: `"${c.column}" is not a column of ${src.name}` });
  if (!c.in.length) issues.push({ path: `${path}/in`, message: 'needs at least one value' });
}

function checkMeasure(src: SourceDef, m: MeasureDef, path: string, issues: CatalogIssue[]): void {
  if (!NAME.test(m.name)) issues.push({ path: `${path}/name`, message: 'must be a lower-case identifier' });
  if (m.agg === 'sum') {
    const cols = m.product ?? (m.column ? [m.column] : []);
    if (!cols.length) issues.push({ path: path, message: 'a sum needs column or product' });
    cols.forEach((c, i) => {
      if (!src.columns[c]) issues.push({ path: `${path}/${m.product ? `product/${i}` : 'column'}`, message: `"${c}" is not a column of ${src.name}` });
    });
  }
  if (m.where) checkCondition(src, m.where, `${path}/where`, issues);
}

export function validateCatalog(catalog: InsightDefinition[]): CatalogIssue[] {
  const issues: CatalogIssue[] = [];
  for (const [name, src] of Object.entries(SOURCES)) checkSource(src, `/sources/${name}`, issues);
  const codes = new Set<string>();
  catalog.forEach((def, i) => {
    const p = `/insights/${i}`;
    if (!NAME.test(def.code)) issues.push({ path: `${p}/code`, message: 'must be a lower-case identifier' });
    if (codes.has(def.code)) issues.push({ path: `${p}/code`, message: `"${def.code}" is declared twice` });
    codes.add(def.code);
    if (!def.name.trim()) issues.push({ path: `${p}/name`, message: 'is required' });
    if (!def.description.trim()) issues.push({ path: `${p}/description`, message: 'is required' });
    const src = SOURCES[def.source];
    if (!src) {
      issues.push({ path: `${p}/source`, message: `"${def.source}" is not a source` });
      return;
    }
    if (!def.measures.length) issues.push({ path: `${p}/measures`, message: 'needs at least one measure' });
    def.measures.forEach((m, j) => checkMeasure(src, m, `${p}/measures/${j}`, issues));
    (def.where ?? []).forEach((c, j) => checkCondition(src, c, `${p}/where/${j}`, issues));
    if (def.secondary) {
      const s2 = SOURCES[def.secondary.source];
      if (!s2) issues.push({ path: `${p}/secondary/source`, message: `"${def.secondary.source}" is not a source` });
      else def.secondary.measures.forEach((m, j) => checkMeasure(s2, m, `${p}/secondary/measures/${j}`, issues));
      if (def.kind !== 'timeseries') issues.push({ path: `${p}/secondary`, message: 'only time series join a second source' });
      for (const f of def.filters) if (s2 && !s2.filters[f]) issues.push({ path: `${p}/filters`, message: `"${f}" cannot filter ${s2.name}` });
    }
    const measureNames = new Set([...def.measures, ...(def.secondary?.measures ?? [])].map((m) => m.name));
    (def.ratios ?? []).forEach((r, j) => {
      for (const k of ['numerator', 'denominator'] as const) {
        if (!measureNames.has(r[k])) issues.push({ path: `${p}/ratios/${j}/${k}`, message: `"${r[k]}" is not a measure of ${def.code}` });
      }
    });
    def.granularities.forEach((g, j) => {
      if (!GRANULARITIES.includes(g)) issues.push({ path: `${p}/granularities/${j}`, message: `"${g}" is not a granularity` });
    });
    if (def.kind === 'breakdown') {
      if (def.granularities.length) issues.push({ path: `${p}/granularities`, message: 'a breakdown has no granularity' });
      if (!def.dimensions?.length) issues.push({ path: `${p}/dimensions`, message: 'a breakdown needs dimensions' });
      (def.dimensions ?? []).forEach((d, j) => {
        if (!src.dimensions[d.source]) issues.push({ path: `${p}/dimensions/${j}/source`, message: `"${d.source}" is not a dimension of ${src.name}` });
      });
      if (def.limit && (def.limit.default < 1 || def.limit.default > def.limit.max)) {
        issues.push({ path: `${p}/limit`, message: 'default must lie between 1 and max' });
      }
    } else {
      if (!def.granularities.length) issues.push({ path: `${p}/granularities`, message: `a ${def.kind} needs granularities` });
      if (!def.defaultGranularity || !def.granularities.includes(def.defaultGranularity)) {
        issues.push({ path: `${p}/defaultGranularity`, message: 'must be one of its granularities' });
      }
      if (def.limit) issues.push({ path: `${p}/limit`, message: `a ${def.kind} takes no limit` });
    }
    if (def.kind === 'kpi' && !def.measures.some((m) => m.name === def.kpiMeasure)) {
      issues.push({ path: `${p}/kpiMeasure`, message: 'must name one of its measures' });
    }
    def.filters.forEach((f, j) => {
      if (!FILTERS.includes(f)) issues.push({ path: `${p}/filters/${j}`, message: `"${f}" is not a filter` });
      else if (!src.filters[f]) issues.push({ path: `${p}/filters/${j}`, message: `"${f}" cannot filter ${src.name}` });
    });
    if (!CHART_TYPES.includes(def.chart.type)) issues.push({ path: `${p}/chart/type`, message: `"${def.chart.type}" is not a chart type` });
    if (issues.some((x) => x.path.startsWith(`${p}/`))) return;
    const outputs = new Set(outputColumns(def).map((c) => c.name));
    if (outputs.size !== outputColumns(def).length) issues.push({ path: `${p}/measures`, message: 'output column names must be unique' });
    if (!outputs.has(def.chart.x_axis)) issues.push({ path: `${p}/chart/x_axis`, message: `"${def.chart.x_axis}" is not a column of the result` });
    (def.chart.y_axis ?? []).forEach((y, j) => {
      if (!outputs.has(y)) issues.push({ path: `${p}/chart/y_axis/${j}`, message: `"${y}" is not a column of the result` });
    });
  });
  return issues;
}

/** Throws CatalogError listing every issue. */
export function assertValidCatalog(catalog: InsightDefinition[]): void {
  const issues = validateCatalog(catalog);
  if (issues.length) throw new CatalogError(issues);
}
