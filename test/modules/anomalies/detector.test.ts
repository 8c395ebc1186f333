// The anomaly detector on its own: weekday baselines, robustness to past outliers, the wording,
// and the "anything unusual last week?" answer chat can give with it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { judge, scan, type SeriesPoint } from '../../../src/modules/anomalies/detector.ts';
import { unusualIn } from '../../../src/modules/anomalies/unusual.ts';

const DAY = 86_400_000;
const WEEKLY = [1.3, 1, 1, 1, 1, 1.1, 1.4]; // Sunday … Saturday
/** 10 weeks of days from Monday 2026-09-07, a weekly cycle and a ±3 % wobble. */
function days(n = 70, base = 20_000): SeriesPoint[] {
  return Array.from({ length: n }, (_, i) => {
    const d = new Date(Date.UTC(2026, 8, 7) + i * DAY);
    return { period: d.toISOString().slice(0, 10), value: Math.round(base * WEEKLY[d.getUTCDay()] * (1 + 0.03 * Math.sin(i * 1.7))) };
  });
}
const eur = (n: number) => `€${Math.round(n).toLocaleString('en-US')}`;

test('a Tuesday is compared with Tuesdays: a weekend-sized value on a Tuesday is unusual, on a Saturday it is not', () => {
  const points = days();
  const lastOn = (weekday: number) => points.map((p) => new Date(`${p.period}T00:00:00Z`).getUTCDay()).lastIndexOf(weekday);
  const tue = lastOn(2);
  const sat = lastOn(6);
  points[tue] = { ...points[tue], value: 28_000 };
  points[sat] = { ...points[sat], value: 28_000 };
  const t = judge(points, tue, true)!;
  assert.equal(t.unusual, true);
  assert.equal(t.direction, 'above');
  assert.equal(t.weekday, 'Tuesday');
  assert.equal(judge(points, sat, true)!.unusual, false);
  assert.equal(judge(points, tue, false)!.weekday, undefined, 'not daily: no weekday baseline');
});

test('past spikes do not widen the band (median and MAD), and too little history gives no verdict', () => {
  const points = days();
  for (const i of [10, 24, 38]) points[i] = { ...points[i], value: points[i].value! * 5 };
  const last = points.length - 1;
  points[last] = { ...points[last], value: points[last].value! * 0.5 };
  assert.equal(judge(points, last, true)!.unusual, true);
  assert.equal(judge(points.slice(0, 20), 19, true), undefined);
});

test('clean data raises no alert at any sensitivity', () => {
  for (const s of ['low', 'medium', 'high'] as const) assert.equal(scan(days(), true, s).filter((f) => f.unusual).length, 0, s);
});

test('"anything unusual in revenue last week?": the unusual values in words, the strongest first', () => {
  const fr = days(70, 20_000);
  const de = days(70, 9_000);
  const i = fr.findIndex((p) => p.period === '2026-11-10'); // a Tuesday
  fr[i] = { ...fr[i], value: 12_410 };
  const answer = unusualIn({
    label: 'Revenue',
    series: [
      { key: 'FR', points: fr },
      { key: 'DE', points: de },
    ],
    from: '2026-11-09',
    to: '2026-11-15',
    daily: true,
    format: eur,
  });
  assert.equal(answer.judged, 14);
  assert.equal(answer.findings.length, 1);
  assert.match(
    answer.findings[0].text,
    /^Revenue in FR on Tuesday 2026-11-10 was €12,410, far below the usual €(19|20),\d{3} ± €\d{3} for a Tuesday\.$/,
  );
  assert.match(answer.text, /^1 unusual value of Revenue in 2026-11-09 – 2026-11-15: Revenue in FR/);
  const calm = unusualIn({
    label: 'Revenue',
    series: [{ key: '', points: de }],
    from: '2026-11-09',
    to: '2026-11-15',
    daily: true,
    format: eur,
  });
  assert.match(calm.text, /^Nothing unusual in Revenue/);
});
