// A cohort insight's rows (docs/model.md "Retention by cohort": cohort, period, retention, active,
// size, one row per cohort and period since) as a retention triangle: a row per cohort with its
// size, a column per period since (0..N), each cell the retention in percent, shaded by it. Pure
// and shared: the web app's RetentionTable, the PDF, the e-mail (HTML and plain text) and the
// messengers' texts draw the same triangle with the same shading.
import type { DataRow } from '../chart.schemas.ts';

export const COHORT_COLUMNS = ['cohort', 'period', 'retention', 'active', 'size'] as const;

/** Whether a result's columns are a cohort insight's (its five columns, in any order). */
export function isCohortResult(columns: readonly { name: string }[]): boolean {
  return columns.length === COHORT_COLUMNS.length && COHORT_COLUMNS.every((n) => columns.some((c) => c.name === n));
}

export interface RetentionCell {
  /** In percent of the cohort's size (100 = all came back). */
  retention: number;
  active: number;
}

export interface RetentionRow {
  /** The cohort's first period, as the rows carry it (2026-03-01). */
  cohort: string;
  size: number;
  /** Indexed by the period since the cohort; undefined past the window's last period. */
  cells: (RetentionCell | undefined)[];
}

export interface RetentionTriangle {
  /** 0..N: the column headers. */
  periods: number[];
  /** Oldest cohort first. */
  rows: RetentionRow[];
}

const numberOf = (v: unknown) => (typeof v === 'number' ? v : Number(v));

export function retentionTriangle(rows: readonly DataRow[]): RetentionTriangle {
  const byCohort = new Map<string, RetentionRow>();
  let width = 0;
  for (const r of rows) {
    const cohort = String(r.cohort);
    let row = byCohort.get(cohort);
    if (!row) byCohort.set(cohort, (row = { cohort, size: numberOf(r.size), cells: [] }));
    const period = numberOf(r.period);
    if (!Number.isInteger(period) || period < 0) continue;
    row.cells[period] = { retention: numberOf(r.retention), active: numberOf(r.active) };
    width = Math.max(width, period + 1);
  }
  // ISO dates sort as text; the rows come in this order already, this keeps it when they do not.
  const sorted = [...byCohort.values()].sort((a, b) => (a.cohort < b.cohort ? -1 : a.cohort > b.cohort ? 1 : 0));
  return { periods: Array.from({ length: width }, (_, i) => i), rows: sorted };
}

/**
 * How much of the accent colour a cell's background mixes in, in percent: proportional to the
 * retention, at most SHADE_MAX so dark text on it keeps a contrast of at least 4.5:1 (WCAG AA) in
 * the light theme, and light text on the dark theme's background does too.
 */
export const SHADE_MAX = 40;
export function shadeShare(retention: number): number {
  const pct = Number.isFinite(retention) ? Math.max(0, Math.min(100, retention)) : 0;
  return Math.round((pct * SHADE_MAX) / 100);
}

/** The light theme's accent and paper (web/src/styles.css): what the PDF and the e-mail shade with. */
export const SHADE_ACCENT = '#3b55d9';
export const SHADE_PAPER = '#ffffff';

const channels = (hex: string) => [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));

/** A cell's background as a #rrggbb colour: the accent mixed into the paper by shadeShare. */
export function shadeColour(retention: number, accent = SHADE_ACCENT, paper = SHADE_PAPER): string {
  const k = shadeShare(retention) / 100;
  const [a, p] = [channels(accent), channels(paper)];
  const hex = (v: number) => Math.round(v).toString(16).padStart(2, '0');
  return `#${p.map((v, i) => hex(v + (a[i] - v) * k)).join('')}`;
}
