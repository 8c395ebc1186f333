// examples/movies: vega-datasets' movies.json (a JSON array, `Release Date` like `Jun 12 1998`,
// nulls, headers with spaces) loaded by the CLI as it is, and execute figures equal to sums computed
// here from the file in plain JS (averages: by DuckDB reading the file directly).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { EMBEDDED_ONLY } from '../helpers/process.ts';
import { duck, execute, loadExample, startExample, stopExample, sumBy, VEGA, type Example } from './vega.ts';

interface Movie {
  Title: string | number;
  'Worldwide Gross': number | null;
  'US Gross': number | null;
  'Production Budget': number | null;
  'Release Date': string | null;
  'Major Genre': string | null;
  Distributor: string | null;
  'IMDB Rating': number | null;
}
const FILE = path.join(VEGA, 'movies.json');
const movies = JSON.parse(fs.readFileSync(FILE, 'utf8')) as Movie[];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** `Jun 12 1998` → `1998-06-12`. */
const isoOf = (d: string | null) => {
  if (!d) return null;
  const [mon, day, year] = d.split(' ');
  return `${year}-${String(MONTHS.indexOf(mon) + 1).padStart(2, '0')}-${day.padStart(2, '0')}`;
};
const released = (from: string, to: string) =>
  movies.filter((m) => isoOf(m['Release Date']) !== null && isoOf(m['Release Date'])! >= from && isoOf(m['Release Date'])! <= to);

let example: Example;

before(async () => {
  if (EMBEDDED_ONLY) return;
  example = await loadExample('movies', [['movies', 'movies.json']]);
});
after(() => stopExample(example));

test('the JSON array loads as it is: Release Date is read as a DATE', { skip: EMBEDDED_ONLY }, () => {
  const out = example.loads[0].stdout;
  assert.match(out, new RegExp(`Loaded ${movies.length.toLocaleString('en')} rows`));
  assert.match(out, /Release Date +DATE +\(dates as MMM D YYYY\)/);
  assert.match(out, /Worldwide Gross +BIGINT/);
  assert.match(out, /Title +VARCHAR/);
});

test("execute: gross per year, per genre, top distributors and a KPI equal the file's sums", { skip: EMBEDDED_ONLY }, async () => {
  await startExample(example);

  const yearly = await execute(example, 'box_office', 'granularity=year&date_from=2000-01-01&date_to=2009-12-31');
  assert.equal(yearly.length, 10);
  for (const row of yearly) {
    const year = String(row.period).slice(0, 4);
    const mine = released(`${year}-01-01`, `${year}-12-31`);
    assert.equal(
      row.worldwide_gross,
      mine.reduce((s, m) => s + (m['Worldwide Gross'] ?? 0), 0),
      year,
    );
    assert.equal(
      row.us_gross,
      mine.reduce((s, m) => s + (m['US Gross'] ?? 0), 0),
      year,
    );
    assert.equal(row.movies, mine.length, year);
  }

  const action = await execute(example, 'box_office', 'granularity=year&date_from=2000-01-01&date_to=2009-12-31&genre=Action');
  for (const row of action) {
    const year = String(row.period).slice(0, 4);
    const mine = released(`${year}-01-01`, `${year}-12-31`).filter((m) => m['Major Genre'] === 'Action');
    assert.equal(
      row.worldwide_gross,
      mine.reduce((s, m) => s + (m['Worldwide Gross'] ?? 0), 0),
      year,
    );
  }

  const nineties = released('1990-01-01', '1999-12-31');
  const byGenre = await execute(example, 'gross_by_genre', 'date_from=1990-01-01&date_to=1999-12-31');
  const gross = sumBy(
    nineties,
    (m) => m['Major Genre'],
    (m) => m['Worldwide Gross'] ?? 0,
  );
  const budget = sumBy(
    nineties,
    (m) => m['Major Genre'],
    (m) => m['Production Budget'] ?? 0,
  );
  const count = sumBy(
    nineties,
    (m) => m['Major Genre'],
    () => 1,
  );
  assert.deepEqual(new Set(byGenre.map((r) => r.genre)), new Set(gross.keys()));
  for (const row of byGenre) {
    const g = row.genre as string | null;
    assert.deepEqual([row.worldwide_gross, row.production_budget, row.movies], [gross.get(g), budget.get(g), count.get(g)], String(g));
  }

  const top = await execute(example, 'top_distributors', 'date_from=2000-01-01&date_to=2009-12-31&limit=5');
  const byDistributor = sumBy(
    released('2000-01-01', '2009-12-31').filter((m) => m.Distributor !== null),
    (m) => m.Distributor,
    (m) => m['Worldwide Gross'] ?? 0,
  );
  const expected = [...byDistributor].sort((a, b) => b[1] - a[1]).slice(0, 5);
  assert.deepEqual(
    top.map((r) => [r.distributor, r.worldwide_gross]),
    expected,
  );

  const [kpi] = await execute(example, 'movies_kpi', 'date_from=2005-01-01&date_to=2005-12-31');
  assert.equal(kpi.value, released('2005-01-01', '2005-12-31').length);
  assert.equal(kpi.previous_value, released('2004-01-01', '2004-12-31').length);

  // Averages: as DuckDB computes them reading the file itself.
  const ratings = await execute(example, 'ratings_by_genre', 'date_from=2000-01-01&date_to=2009-12-31');
  const direct = await duck<{ genre: string | null; imdb: number | null }>(
    `SELECT "Major Genre" AS genre, avg("IMDB Rating") AS imdb FROM read_json('${FILE}')
     WHERE strptime("Release Date", '%b %d %Y') BETWEEN DATE '2000-01-01' AND DATE '2009-12-31' GROUP BY 1`,
  );
  for (const row of ratings) assert.equal(row.imdb_rating, direct.find((d) => d.genre === row.genre)!.imdb, String(row.genre));
});

test("chat answers in the model's words without an error", { skip: EMBEDDED_ONLY }, async () => {
  const res = await fetch(`${example.server!.url}/api/v1/ai/chat`, {
    method: 'POST',
    headers: { ...example.auth, 'content-type': 'application/json' },
    body: JSON.stringify({ message: 'worldwide gross by genre in 2005' }),
  });
  assert.equal(res.status, 200, await res.clone().text());
  const data = ((await res.json()) as { data: { insight_code: string | null; rows: Record<string, unknown>[] } }).data;
  assert.equal(data.insight_code, 'gross_by_genre', JSON.stringify(data));
  const drama = released('2005-01-01', '2005-12-31').filter((m) => m['Major Genre'] === 'Drama');
  assert.equal(
    data.rows.find((r) => r.genre === 'Drama')?.worldwide_gross,
    drama.reduce((s, m) => s + (m['Worldwide Gross'] ?? 0), 0),
    JSON.stringify(data),
  );
});

test('chat over a dataset that ended long ago: no period named is the data’s own span, said so; figures from the file', {
  skip: EMBEDDED_ONLY,
}, async () => {
  const ask = async (message: string) => {
    const res = await fetch(`${example.server!.url}/api/v1/ai/chat`, {
      method: 'POST',
      headers: { ...example.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ message }),
    });
    assert.equal(res.status, 200, await res.clone().text());
    return (
      (await res.json()) as {
        data: { insight_code: string | null; reply_text: string; query: Record<string, string> | null; rows: Record<string, unknown>[] };
      }
    ).data;
  };
  // The file holds release dates up to 2046 (two-digit years read as 20xx upstream): its span ends there.
  const dates = movies
    .map((m) => isoOf(m['Release Date']))
    .filter((d): d is string => d !== null)
    .sort();
  const last = dates.at(-1)!;
  // The engine's window is at most 3,660 days: the latest ten years of a span that is longer, said so.
  const count = await ask('how many films do we have');
  assert.equal(count.insight_code, 'movies_kpi');
  assert.equal(count.query!.date_to, last);
  assert.equal(count.rows[0].value, released(count.query!.date_from, last).length);
  assert.match(count.reply_text, /no period was named/);

  const listed = await ask('Horror vs Comedy box office by year from 2000 to 2005');
  assert.equal(listed.insight_code, 'box_office');
  const horror2003 = released('2003-01-01', '2003-12-31').filter((m) => m['Major Genre'] === 'Horror');
  const row = listed.rows.find((r) => String(r.period).startsWith('2003') && r.genre === 'Horror');
  assert.equal(
    row?.worldwide_gross,
    horror2003.reduce((s, m) => s + (m['Worldwide Gross'] ?? 0), 0),
    JSON.stringify(listed.rows.slice(0, 4)),
  );

  const compared = await ask('compare box office in 2004 with 2003');
  assert.equal(compared.insight_code, 'box_office_kpi');
  const gross = (y: string) => released(`${y}-01-01`, `${y}-12-31`).reduce((s, m) => s + (m['Worldwide Gross'] ?? 0), 0);
  assert.equal(compared.rows[0].value, gross('2004'));
  assert.equal(compared.rows[0].previous_value, gross('2003'));
});
