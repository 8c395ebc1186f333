// Chat composes on the vega-datasets examples (examples/movies, examples/birdstrikes,
// examples/flights: models nobody wrote for chat, their files loaded as shipped, the way
// `insights data load` loads them): per dataset at least 25 questions that need two dimensions, a
// value filter, a measure condition, a top list or a comparison per group, each judged against the
// rows of the semantic query that means it (POST /api/v1/query). Refusals are counted, never
// wrong; a wrong answer fails the test. A few answers are also checked against figures computed
// here from the files themselves (DuckDB reading them directly), so the test cannot pass on a
// query API that is wrong too.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../../../src/lib/clock.ts';
import { DuckDbWarehouse } from '../../../src/warehouse/duckdb/duckdb.ts';
import { buildTestApp, call, type TestApp } from '../../helpers/app.ts';
import { duck, VEGA } from '../../examples/vega.ts';
import { composeSets, loadSetData, runSet, type ComposeSet } from '../../../eval/compose.ts';

const ROOT = path.join(import.meta.dirname, '../../..');
type Row = Record<string, unknown>;

/** The app on the set's model and day, its data loaded under tenant acme; `ask` returns chat's data. */
function onSet(set: ComposeSet) {
  const ctx = {} as { t: TestApp; wh: DuckDbWarehouse; auth: string };
  before(async () => {
    ctx.wh = await DuckDbWarehouse.open(':memory:');
    await loadSetData(ctx.wh, set, 'acme');
    ctx.t = await buildTestApp({
      clock: new ManualClock(new Date(`${set.today}T10:00:00Z`)),
      env: { INSIGHTS_MODEL: path.join(ROOT, set.model!), INSIGHTS_CHAT_RATE_LIMIT: '100000' },
      deps: { warehouse: ctx.wh },
    });
    ctx.auth = await ctx.t.login({ tenant: 'acme', user: 'composer', role: 'member' });
  });
  after(async () => {
    await ctx.t?.close();
    await ctx.wh?.close();
  });
  const api = async (method: 'POST', url: string, body: unknown) => {
    const res = await call(ctx.t, ctx.auth, method, url, body);
    return { status: res.statusCode, body: res.data };
  };
  const ask = async (message: string) => {
    const res = await api('POST', '/api/v1/ai/chat', { message });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.data as { rows: Row[]; query: unknown; reply_text: string; insight_code: string | null };
  };
  return { api, ask };
}

/** Every case of the set asked: none wrong, and most answered (refusing them all would not be composition). */
async function noneWrong(name: string, api: ReturnType<typeof onSet>['api'], set: ComposeSet, minRight: number) {
  assert.ok(set.cases.length >= 25, `${set.cases.length} cases`);
  const { table, wrong, refused } = await runSet(api, set);
  const right = [...table.values()].reduce((s, r) => s + r.right, 0);
  console.log(name, JSON.stringify(Object.fromEntries(table)), refused.length ? `\nrefused:\n${refused.join('\n')}` : '');
  assert.deepEqual(wrong, []);
  assert.ok(right >= minRight, `${right} right of ${set.cases.length}`);
  // The sets hold questions of every kind and refusals in the four languages.
  assert.deepEqual(new Set(set.cases.map((c) => c.language ?? 'en')), new Set(['en', 'de', 'fr', 'es']));
  assert.ok(set.cases.filter((c) => c.expect === null).length >= 4);
}

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
const byKey = (rows: Row[], key: string, value: string) => Object.fromEntries(rows.map((r) => [String(r[key]), num(r[value])]));

describe('movies (movies.json as shipped)', () => {
  const set = composeSets.movies;
  const { api, ask } = onSet(set);
  const FILE = `read_json_auto('${path.join(VEGA, 'movies.json')}')`;
  // "Jun 12 1998" as the load reads it.
  const YEAR = `year(try_strptime("Release Date", '%b %d %Y'))`;

  test('at least 25 composition questions, none answered wrong', async () => {
    await noneWrong('movies', api, set, set.cases.length - 8);
  });

  test('figures from the file: US gross by genre without Warner Bros., R-rated gross by genre', async () => {
    const us = await ask('US gross by genre excluding Warner Bros. in 2007');
    // A movie without a distributor is not one of Warner Bros. (docs/query.md: not_equals keeps rows without a value).
    const want = await duck<{ g: string; s: string }>(
      `SELECT "Major Genre" g, sum("US Gross") s FROM ${FILE} WHERE ${YEAR} = 2007 AND "Distributor" IS DISTINCT FROM 'Warner Bros.' GROUP BY 1`,
    );
    assert.deepEqual(byKey(us.rows, 'movies.genre', 'movies.us_gross'), Object.fromEntries(want.map((x) => [String(x.g), num(x.s)])));

    const r = await ask('worldwide gross of R-rated movies by genre in 2006');
    const rated = await duck<{ g: string; s: string }>(
      `SELECT "Major Genre" g, sum("Worldwide Gross") s FROM ${FILE} WHERE ${YEAR} = 2006 AND "MPAA Rating" = 'R' GROUP BY 1`,
    );
    assert.deepEqual(
      byKey(r.rows, 'movies.genre', 'movies.worldwide_gross'),
      Object.fromEntries(rated.map((x) => [String(x.g), num(x.s)])),
    );
  });

  test('a distributor with more than 10 movies: the condition applies per group', async () => {
    const a = await ask('distributors with more than 10 movies in 2006');
    const want = await duck<{ d: string; n: string }>(
      `SELECT "Distributor" d, count(*) n FROM ${FILE} WHERE ${YEAR} = 2006 GROUP BY 1 HAVING count(*) > 10`,
    );
    assert.deepEqual(byKey(a.rows, 'movies.distributor', 'movies.movies'), Object.fromEntries(want.map((x) => [String(x.d), num(x.n)])));
  });
});

describe('birdstrikes (birdstrikes.csv as shipped)', () => {
  const set = composeSets.birdstrikes;
  const { api, ask } = onSet(set);
  const FILE = `read_csv_auto('${path.join(VEGA, 'birdstrikes.csv')}')`;

  test('at least 25 composition questions, none answered wrong', async () => {
    await noneWrong('birdstrikes', api, set, set.cases.length - 8);
  });

  test('figures from the file: strikes by phase and time of day, medium damage, large birds', async () => {
    const two = await ask('strikes by phase of flight and time of day in 2000');
    const want = await duck<{ p: string; t: string; n: string }>(
      `SELECT "Phase of flight" p, "Time of day" t, count(*) n FROM ${FILE} WHERE year("Flight Date") = 2000 GROUP BY 1, 2`,
    );
    assert.equal(two.rows.length, want.length);
    for (const w of want) {
      const got = two.rows.find((r) => r['strikes.phase'] === w.p && r['strikes.time_of_day'] === w.t);
      assert.equal(num(got?.['strikes.strikes']), num(w.n), `${w.p} ${w.t}`);
    }
    const medium = await ask('strikes with medium damage by phase of flight in 2000');
    const m = await duck<{ p: string; n: string }>(
      `SELECT "Phase of flight" p, count(*) n FROM ${FILE} WHERE year("Flight Date") = 2000 AND "Effect Amount of damage" = 'Medium' GROUP BY 1`,
    );
    assert.deepEqual(byKey(medium.rows, 'strikes.phase', 'strikes.strikes'), Object.fromEntries(m.map((x) => [x.p, num(x.n)])));
    const large = await ask('total cost by phase of flight for large birds in 2000');
    const l = await duck<{ p: string; c: string }>(
      `SELECT "Phase of flight" p, sum("Cost Total $") c FROM ${FILE} WHERE year("Flight Date") = 2000 AND "Wildlife Size" = 'Large' GROUP BY 1`,
    );
    assert.deepEqual(byKey(large.rows, 'strikes.phase', 'strikes.total_cost'), Object.fromEntries(l.map((x) => [x.p, num(x.c)])));
  });

  test('a state the data does not hold is refused by name, never answered for every state', async () => {
    const a = await ask('strikes in Alaska by phase of flight in 2000');
    assert.equal(a.query, null);
    assert.match(a.reply_text, /Alaska/);
  });
});

describe('flights (flights-3m.parquet and airports.csv as shipped)', () => {
  const set = composeSets.flights;
  const { api, ask } = onSet(set);
  const FLIGHTS = `read_parquet('${path.join(VEGA, 'flights-3m.parquet')}')`;
  const AIRPORTS = `read_csv('${path.join(VEGA, 'airports.csv')}')`;

  test('at least 25 composition questions, none answered wrong', async () => {
    await noneWrong('flights', api, set, set.cases.length - 10);
  });

  test('figures from the files: ATL to ORD by month, delayed flights by origin in TX (through the join)', async () => {
    const route = await ask('flights from ATL to ORD by month in 2001');
    const months = await duck<{ m: string; n: string }>(
      `SELECT strftime(date_trunc('month', date), '%Y-%m-%d') m, count(*) n FROM ${FLIGHTS}
       WHERE origin = 'ATL' AND destination = 'ORD' AND date < TIMESTAMP '2001-07-01' GROUP BY 1`,
    );
    assert.deepEqual(
      Object.fromEntries(route.rows.map((r) => [String(r['flights.departed_at']).slice(0, 10), num(r['flights.flights'])])),
      Object.fromEntries(months.map((x) => [x.m, num(x.n)])),
    );
    const tx = await ask('delayed flights by origin in TX in April 2001');
    const want = await duck<{ o: string; n: string }>(
      `SELECT f.origin o, count(*) n FROM ${FLIGHTS} f JOIN ${AIRPORTS} a ON f.origin = a.iata
       WHERE f.delay > 15 AND a.state = 'TX' AND f.date >= TIMESTAMP '2001-04-01' AND f.date < TIMESTAMP '2001-05-01' GROUP BY 1`,
    );
    assert.deepEqual(byKey(tx.rows, 'flights.origin', 'flights.delayed_flights'), Object.fromEntries(want.map((x) => [x.o, num(x.n)])));
    // A state code is a state's, never read or written as a country ("CA" is not Canada).
    const states = await ask('average delay by origin state in May 2001');
    assert.doesNotMatch(states.reply_text, /Canada|Israel|Namibia/);
  });

  test('"cancelled flights" and "from Texas" are refused by name, never answered with every flight', async () => {
    for (const [q, term] of [
      ['cancelled flights by origin in March 2001', /cancelled flights/],
      ['flights from Texas by month', /Texas/],
      ['flights from texas by month', /texas/],
    ] as const) {
      const a = await ask(q);
      assert.equal(a.query, null, q);
      assert.match(a.reply_text, term, q);
    }
  });
});
