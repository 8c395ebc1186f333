// npm run bench -- anomalies [series]: a backtest of the anomaly detector (src/modules/anomalies/).
// Demo-like daily revenue series (the demo shop's shape: growth, a yearly cycle, a weekly cycle,
// ±10 % day jitter, Poisson order counts and log-normal baskets) for countries of three sizes, a
// year each. Spikes and drops (×0.3–0.6 or ×1.6–2.5 of the day's revenue) are injected on random
// days; the detector judges every day with at least 8 weeks of history. Printed per sensitivity:
// precision and recall on the injected days, and alerts per series per month on the same series
// left clean. Target: recall ≥ 0.9 at medium with at most one false alert per series per month.
import { scan, type Sensitivity } from '../src/modules/anomalies/detector.ts';
import { prng as rng } from '../test/helpers/prng.ts';

const DAY_MS = 86_400_000;
const WEEKLY = [1.0, 0.97, 0.95, 1.0, 1.08, 1.22, 1.15]; // Monday … Sunday
const SIZES = [
  { name: 'large', orders: 300 },
  { name: 'medium', orders: 100 },
  { name: 'small', orders: 40 },
];
const DAYS = 365;
const WARMUP = 56;

function poisson(lambda: number, r: () => number): number {
  // Normal approximation above 50 keeps a year of large series fast.
  if (lambda > 50) return Math.max(0, Math.round(lambda + Math.sqrt(lambda) * gauss(r)));
  const l = Math.exp(-lambda);
  let k = 0;
  let p = 1;
  do {
    k++;
    p *= r();
  } while (p > l);
  return k - 1;
}

function gauss(r: () => number): number {
  return Math.sqrt(-2 * Math.log(r() || 1e-12)) * Math.cos(2 * Math.PI * r());
}

function series(orders: number, seed: number) {
  const r = rng(seed);
  const start = Date.UTC(2025, 0, 6);
  const points: { period: string; value: number }[] = [];
  for (let t = 0; t < DAYS; t++) {
    const d = new Date(start + t * DAY_MS);
    const doy = t % 365;
    const growth = 1.25 ** (t / 365);
    const season = 1 + 0.18 * Math.cos((2 * Math.PI * (doy - 350)) / 365);
    const weekly = WEEKLY[(d.getUTCDay() + 6) % 7];
    const jitter = 0.9 + 0.2 * r();
    const n = poisson(orders * growth * season * weekly * jitter, r);
    let revenue = 0;
    for (let i = 0; i < Math.min(n, 400); i++) revenue += Math.exp(Math.log(45) + 0.6 * gauss(r));
    if (n > 400) revenue *= n / 400;
    points.push({ period: d.toISOString().slice(0, 10), value: Math.round(revenue * 100) / 100 });
  }
  return points;
}

/** The same series with anomalies on about 1 day in 30 after the warm-up; returns their days. */
function inject(points: { period: string; value: number }[], seed: number) {
  const r = rng(seed);
  const hit = new Set<string>();
  const out = points.map((p, i) => {
    if (i < WARMUP || r() > 1 / 30) return p;
    const up = r() < 0.5;
    const factor = up ? 1.6 + 0.9 * r() : 0.3 + 0.3 * r();
    hit.add(p.period);
    return { period: p.period, value: Math.round(p.value * factor * 100) / 100 };
  });
  return { points: out, hit };
}

export async function run(args: string[]): Promise<void> {
  const perSize = Number(args[0] ?? 40);
  const rows: string[][] = [];
  for (const sensitivity of ['low', 'medium', 'high'] as Sensitivity[]) {
    for (const size of [...SIZES, { name: 'all', orders: 0 }]) {
      let tp = 0;
      let fp = 0;
      let fn = 0;
      let cleanAlerts = 0;
      let cleanMonths = 0;
      for (const s of size.name === 'all' ? SIZES : [size]) {
        for (let k = 0; k < perSize; k++) {
          const seed = s.orders * 1000 + k;
          const clean = series(s.orders, seed);
          const from = clean[WARMUP].period;
          const cleanFindings = scan(clean, true, sensitivity, from);
          cleanAlerts += cleanFindings.filter((f) => f.unusual).length;
          cleanMonths += (DAYS - WARMUP) / 30.4;
          const { points, hit } = inject(clean, seed + 7);
          for (const f of scan(points, true, sensitivity, from)) {
            if (f.unusual && hit.has(f.period)) tp++;
            else if (f.unusual) fp++;
            else if (hit.has(f.period)) fn++;
          }
        }
      }
      rows.push([
        sensitivity,
        size.name,
        (tp / Math.max(1, tp + fp)).toFixed(3),
        (tp / Math.max(1, tp + fn)).toFixed(3),
        (cleanAlerts / cleanMonths).toFixed(2),
      ]);
    }
  }
  const head = ['sensitivity', 'series', 'precision', 'recall', 'false alerts / series / month (clean)'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join('  ');
  process.stdout.write(
    `Anomaly backtest: ${perSize} series per size, ${DAYS} days each (${WARMUP} warm-up), ~1 injected day in 30 (×0.3–0.6 or ×1.6–2.5)\n`,
  );
  process.stdout.write(`${line(head)}\n${line(widths.map((w) => '-'.repeat(w)))}\n${rows.map(line).join('\n')}\n`);
}
