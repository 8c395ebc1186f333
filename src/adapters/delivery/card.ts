// A report as the chat tools show it (Slack, Microsoft Teams, Google Chat): a title, a few lines
// of text, the figures as label/value facts, the charts as images reachable on the public URL,
// and a link to the insight or dashboard in the web app. Each tool's transport lays this out in
// its own format (Block Kit, an Adaptive Card, a Chat card); what the card says is decided once.
import type { Report, ReportSection } from '../../lib/report.ts';
import { columnsOf, formatCell } from '../charts/cells.ts';
import { retentionFacts, retentionHeadline, retentionOf } from '../charts/retention.ts';
import { kpiLine } from './format.ts';

export interface CardFact {
  title: string;
  value: string;
}

export interface ReportCard {
  title: string;
  /** The summary (an alert's sentence first): plain text. */
  text: string;
  facts: CardFact[];
  images: { url: string; alt: string }[];
  /** Where the insight or dashboard opens; absent without INSIGHTS_PUBLIC_URL. */
  link?: { label: string; url: string };
}

/** The most facts a card lists: Slack shows at most 10 fields in a section block. */
export const MAX_FACTS = 10;

function clip(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, Math.max(0, max - 1))}…` : s;
}

/** The measure a section's headline reads: the chart's first y column, else its first numeric one. */
function measureOf(section: ReportSection) {
  const columns = columnsOf(section);
  const named = section.chart_hint?.y_axis?.[0];
  return columns.find((c) => c.name === named) ?? columns.find((c) => ['money', 'integer', 'number', 'percent'].includes(c.type));
}

/** What one row is called: its period (and series), or its dimension values. */
function rowLabel(section: ReportSection, row: Record<string, unknown>): string {
  const measures = new Set(section.chart_hint?.y_axis ?? []);
  const numeric = new Set(['money', 'integer', 'number', 'percent']);
  return (
    columnsOf(section)
      .filter((c) => !measures.has(c.name) && !numeric.has(c.type) && !c.name.startsWith('previous_'))
      .map((c) => formatCell(row[c.name], c))
      .join(' · ') || '—'
  );
}

const isSeries = (section: ReportSection) => columnsOf(section).some((c) => c.name === 'period');

/**
 * A section's headline figure: a KPI's value and change; a cohort's count and latest return; a
 * time series' latest period; a breakdown's first row; otherwise how many rows it has.
 */
export function headlineOf(section: ReportSection): string {
  const kpi = kpiLine(section);
  if (kpi) return kpi;
  if (!section.rows.length) return section.subtitle?.startsWith('Could not') ? section.subtitle : 'No data for this period';
  const triangle = retentionOf(section);
  if (triangle) return retentionHeadline(triangle);
  const measure = measureOf(section);
  if (!measure) return `${section.rows.length} row${section.rows.length === 1 ? '' : 's'}`;
  const row = isSeries(section) ? section.rows.at(-1)! : section.rows[0];
  const label = rowLabel(section, row);
  const suffix = isSeries(section) ? '' : section.rows.length > 1 ? ` (first of ${section.rows.length})` : '';
  return `${formatCell(row[measure.name], measure)} — ${label}${suffix}`;
}

/**
 * The facts of a one-section report: each row (the latest periods of a series) with its figures;
 * a cohort's latest cohorts, each with its retention per period.
 */
function rowFacts(section: ReportSection): CardFact[] {
  const kpi = kpiLine(section);
  if (kpi) return [{ title: section.kpi?.label || section.title, value: kpi }];
  const triangle = retentionOf(section);
  if (triangle) return retentionFacts(triangle, MAX_FACTS).map((f) => ({ title: clip(f.title, 100), value: clip(f.value, 300) }));
  const measures = columnsOf(section).filter((c) => (section.chart_hint?.y_axis ?? []).includes(c.name));
  const shown = measures.length ? measures : [measureOf(section)].filter((c) => c !== undefined);
  if (!shown.length) return [];
  const rows = isSeries(section) ? section.rows.slice(-MAX_FACTS) : section.rows.slice(0, MAX_FACTS);
  return rows.map((row) => ({
    title: clip(rowLabel(section, row), 100),
    value: clip(shown.map((c) => `${c.label || c.name}: ${formatCell(row[c.name], c)}`).join(' · '), 300),
  }));
}

/**
 * The card of a report. publicUrl is INSIGHTS_PUBLIC_URL (no link without it); imageUrls are the
 * published charts of the report's sections, in order.
 */
export function cardOf(report: Report, publicUrl?: string, imageUrls: (string | undefined)[] = []): ReportCard {
  const facts =
    report.type === 'dashboard.report'
      ? report.sections.slice(0, MAX_FACTS * 2).map((s) => ({ title: clip(s.title, 100), value: clip(headlineOf(s), 300) }))
      : report.sections.length === 1
        ? rowFacts(report.sections[0])
        : [];
  const images = report.sections.flatMap((s, i) => (imageUrls[i] ? [{ url: imageUrls[i]!, alt: clip(`Chart: ${s.title}`, 200) }] : []));
  const card: ReportCard = { title: clip(report.title, 150), text: clip(report.summary, 2000), facts, images };
  if (publicUrl && report.web_path) {
    card.link = {
      label: report.type === 'dashboard.report' ? 'Open the dashboard' : 'Open the insight',
      url: `${publicUrl.replace(/\/+$/, '')}${report.web_path}`,
    };
  }
  return card;
}

/** The card as plain text: the fallback shown in notifications and by clients that draw no cards. */
export function cardText(card: ReportCard): string {
  const lines = [card.title, card.text, ...card.facts.map((f) => `• ${f.title}: ${f.value}`)];
  if (card.link) lines.push(card.link.url);
  return clip(lines.join('\n'), 3000);
}
