// examples/birdstrikes: vega-datasets' birdstrikes.csv (headers such as `Cost Total $`, mixed line
// ends) loaded by the CLI as it is, and execute figures equal to sums computed here from the file in
// plain JS.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { EMBEDDED_ONLY } from '../helpers/process.ts';
import { execute, loadExample, startExample, stopExample, sumBy, VEGA, type Example } from './vega.ts';

const FILE = path.join(VEGA, 'birdstrikes.csv');
// No field of this file is quoted: a split is a faithful reader.
const [header, ...lines] = fs.readFileSync(FILE, 'utf8').trimEnd().split(/\r?\n/);
const columns = header.split(',');
const strikes = lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [columns[i], v]))) as Record<string, string>[];
const cost = (s: Record<string, string>) => Number(s['Cost Total $'] || 0);
const between = (from: string, to: string) => strikes.filter((s) => s['Flight Date'] >= from && s['Flight Date'] <= to);

let example: Example;

before(async () => {
  if (EMBEDDED_ONLY) return;
  example = await loadExample('birdstrikes', [['birdstrikes', 'birdstrikes.csv']]);
});
after(() => stopExample(example));

test('the CSV loads as it is: `Cost Total $` a number, `Flight Date` a date', { skip: EMBEDDED_ONLY }, () => {
  const out = example.loads[0].stdout;
  assert.match(out, new RegExp(`Loaded ${strikes.length.toLocaleString('en')} rows`));
  assert.match(out, /Cost Total \$ +BIGINT/);
  assert.match(out, /Flight Date +DATE/);
});

test("execute: strikes and costs per year, phase, size and the top species equal the file's sums", { skip: EMBEDDED_ONLY }, async () => {
  await startExample(example);
  const window = 'date_from=1994-01-01&date_to=2003-12-31';

  const yearly = await execute(example, 'strikes', `granularity=year&${window}`);
  assert.equal(yearly.length, 10);
  for (const row of yearly) {
    const year = String(row.period).slice(0, 4);
    const mine = between(`${year}-01-01`, `${year}-12-31`);
    assert.deepEqual([row.strikes, row.total_cost], [mine.length, mine.reduce((s, m) => s + cost(m), 0)], year);
  }

  const approach = await execute(example, 'strikes', `granularity=month&date_from=2001-01-01&date_to=2001-12-31&phase=Approach`);
  for (const row of approach) {
    const month = String(row.period).slice(0, 7);
    assert.equal(
      row.strikes,
      strikes.filter((s) => s['Flight Date'].startsWith(month) && s['Phase of flight'] === 'Approach').length,
      month,
    );
  }

  const phases = await execute(example, 'strikes_by_phase', window);
  const inWindow = between('1994-01-01', '2003-12-31');
  const byPhase = sumBy(
    inWindow,
    (s) => s['Phase of flight'] || null,
    () => 1,
  );
  const costByPhase = sumBy(inWindow, (s) => s['Phase of flight'] || null, cost);
  assert.deepEqual(new Map(phases.map((r) => [r.phase as string | null, r.strikes])), byPhase);
  for (const row of phases) assert.equal(row.total_cost, costByPhase.get(row.phase as string | null), String(row.phase));

  const damaging = await execute(example, 'strikes_kpi', window);
  assert.equal(damaging[0].value, inWindow.length);

  const bySize = await execute(example, 'cost_by_wildlife_size', window);
  const sizeCost = sumBy(inWindow, (s) => s['Wildlife Size'] || null, cost);
  for (const row of bySize) assert.equal(row.total_cost, sizeCost.get(row.wildlife_size as string | null), String(row.wildlife_size));

  const top = await execute(example, 'top_species', `${window}&limit=5`);
  const species = [
    ...sumBy(
      inWindow,
      (s) => s['Wildlife Species'],
      () => 1,
    ),
  ]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 5);
  assert.deepEqual(
    top.map((r) => [r.species, r.strikes]),
    species,
  );

  const damage = await execute(example, 'strikes_by_damage', window);
  assert.deepEqual(
    new Map(damage.map((r) => [r.damage as string | null, r.strikes])),
    sumBy(
      inWindow,
      (s) => s['Effect Amount of damage'] || null,
      () => 1,
    ),
  );
});
