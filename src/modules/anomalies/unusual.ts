// "Anything unusual in revenue last week?": the detector run over a stretch of periods of one or
// more series (a measure, whole or per value), answered in sentences. Pure, like the detector:
// the caller (chat, MCP, a bench) runs the query and hands the series in.
import { explain, type Finding, scan, type SeriesPoint, type Sensitivity } from './detector.ts';

export interface UnusualQuestion {
  /** The measure's label ("Revenue"). */
  label: string;
  /** The series to look at: the whole measure (key ''), or one per value ("FR"). */
  series: { key: string; points: SeriesPoint[] }[];
  /** The stretch asked about, YYYY-MM-DD, both included; the points before it are the history. */
  from: string;
  to: string;
  /** Daily series compare each day with the same weekday. */
  daily: boolean;
  sensitivity?: Sensitivity;
  /** Renders a figure in the measure's unit (€12,410). */
  format(n: number): string;
}

export interface UnusualAnswer {
  findings: (Finding & { key: string; text: string })[];
  /** How many periods were judged (those with enough history). */
  judged: number;
  /** The answer in words. */
  text: string;
}

export function unusualIn(q: UnusualQuestion): UnusualAnswer {
  const sensitivity = q.sensitivity ?? 'medium';
  const findings: UnusualAnswer['findings'] = [];
  let judged = 0;
  for (const s of q.series) {
    const points = [...s.points].sort((a, b) => (a.period < b.period ? -1 : a.period > b.period ? 1 : 0));
    for (const f of scan(points, q.daily, sensitivity, q.from)) {
      if (f.period > q.to) continue;
      judged++;
      if (f.unusual) findings.push({ ...f, key: s.key, text: explain(f, q.label, s.key, q.format, sensitivity) });
    }
  }
  // The strongest first: that is what people want to read about.
  findings.sort((a, b) => Math.abs(b.score) - Math.abs(a.score));
  const span = q.from === q.to ? q.from : `${q.from} – ${q.to}`;
  const text = !judged
    ? `Too little history to tell what is usual for ${q.label} in ${span}.`
    : findings.length
      ? `${findings.length} unusual ${findings.length === 1 ? 'value' : 'values'} of ${q.label} in ${span}: ${findings
          .slice(0, 5)
          .map((f) => f.text)
          .join(' ')}${findings.length > 5 ? ` And ${findings.length - 5} more.` : ''}`
      : `Nothing unusual in ${q.label} in ${span}: every value lies within its usual range.`;
  return { findings, judged, text };
}
