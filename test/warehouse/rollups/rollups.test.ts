// Rollups (docs/rollups.md): answers from the demo model's pre-aggregated tables are the raw
// answers, on DuckDB, on PostgreSQL (PGlite, or DATABASE_URL's server) and on ClickHouse (the
// chdb-backed server, where chdb is installed); a load keeps them
// current for the loading tenant before it answers; anything not exactly answerable goes raw.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../../../src/lib/clock.ts';
import { InsightsService, type ExecuteParams } from '../../../src/modules/insights/insights.service.ts';
import { compileInsight as compile } from '../../../src/semantic/query/insight-query.ts';
import { DIALECTS } from '../../../src/semantic/dialects/index.ts';
import { demoModel, modelFromText, type ModelError } from '../../../src/semantic/model.ts';
import { rollupFor, rollsUpTo } from '../../../src/semantic/rollups.ts';
import { RollupStore } from '../../../src/warehouse/rollups/rollups.ts';
import type { Warehouse } from '../../../src/warehouse/warehouse.ts';
import { buildTestApp, call } from '../../helpers/app.ts';
import { clickhouseSkip, testClickHouseWarehouse } from '../../helpers/clickhouse.ts';
import { postgresWarehouseUrl, testPostgresWarehouse, testWarehouse } from '../../helpers/warehouse.ts';

const clock = new ManualClock(new Date('2026-03-31T12:00:00Z'));
const model = demoModel();

/** Every insight × granularity × filter set × tenant of the demo model. */
function cases(service: InsightsService): { tenant: string; code: string; params: ExecuteParams }[] {
  const filterSets: ExecuteParams[] = [
    {},
    { country: 'DE' },
    { channel: 'mobile' },
    { country: 'US', channel: 'web' },
    { date_from: '2025-02-10', date_to: '2025-11-03' },
    { date_from: '2025-03-01', date_to: '2025-03-01' },
    // Comparisons and several values: each window and fact picks its rollup on its own.
    { compare: 'previous_year' },
    { compare: 'previous_period', country: ['DE', 'FR'] },
    { compare: 'previous_year', channel: ['web', 'mobile'], country: 'US', date_from: '2025-12-29', date_to: '2026-03-04' },
  ];
  const out: { tenant: string; code: string; params: ExecuteParams }[] = [];
  for (const entry of service.catalog()) {
    for (const g of entry.granularities.length ? entry.granularities : [undefined]) {
      for (const f of filterSets) {
        // A cohort takes no compare.
        if (f.compare && !entry.parameters.includes('compare')) continue;
        const params: ExecuteParams = { ...f, ...(g ? { granularity: g } : {}) };
        if (entry.filters.includes('category') && f.country === 'DE') params.category = 'Electronics';
        for (const tenant of ['demo', 'acme']) out.push({ tenant, code: entry.code, params });
      }
    }
  }
  return out;
}

const ENGINE_NAMES = { duckdb: 'DuckDB', postgres: postgresWarehouseUrl ? 'PostgreSQL' : 'PostgreSQL (PGlite)', clickhouse: 'ClickHouse' };

for (const engine of ['duckdb', 'postgres', 'clickhouse'] as const) {
  describe(`rollups on ${ENGINE_NAMES[engine]}`, { skip: engine === 'clickhouse' && clickhouseSkip }, () => {
    let warehouse: Warehouse;
    let store: RollupStore;
    // Per-tenant versions: kept by DuckDB, PostgreSQL servers and ClickHouse (not the PGlite test warehouse).
    const versioned = engine !== 'postgres' || Boolean(postgresWarehouseUrl);
    before(async () => {
      warehouse =
        engine === 'duckdb'
          ? await testWarehouse(clock.now(), 4000)
          : engine === 'postgres'
            ? await testPostgresWarehouse(clock.now(), 4000)
            : await testClickHouseWarehouse(clock.now(), 4000);
      store = new RollupStore(warehouse, model.rollups);
    });
    after(async () => {
      if (engine === 'postgres' && postgresWarehouseUrl)
        await warehouse?.exec('DROP SCHEMA IF EXISTS insights_rollups CASCADE').catch(() => {});
      await warehouse?.close();
    });

    test('the demo model declares rollups, and they build for every tenant', async () => {
      assert.deepEqual(
        model.rollups.map((r) => r.id),
        ['orders.daily', 'order_items.daily_by_product'],
      );
      const builds = await store.build();
      for (const b of builds) assert.deepEqual([...b.tenants].sort(), ['acme', 'demo'], b.rollup);
      const status = await store.status();
      for (const s of status)
        assert.ok(
          s.tenants.every((t) => t.current && t.rows > 0),
          JSON.stringify(s),
        );
    });

    test('every insight × granularity × filter gives the same rows from the rollups as from the raw rows', async () => {
      const raw = new InsightsService(warehouse, clock, model);
      const rolled = new InsightsService(warehouse, clock, model, store);
      // On ClickHouse (an embedded server behind HTTP, ~5× DuckDB's time per query here) one tenant's
      // cases: the tenant is a bound value, so the other's SQL is the same text; DuckDB and PGlite
      // run both tenants' (test/warehouse/differential.test.ts compares ClickHouse with DuckDB on both).
      const all = cases(raw).filter((c) => engine !== 'clickhouse' || c.tenant === 'demo');
      let fromRollup = 0;
      for (const c of all) {
        const [a, b] = await Promise.all([raw.execute(c.tenant, c.code, c.params), rolled.execute(c.tenant, c.code, c.params)]);
        assert.deepEqual(b.rows, a.rows, `${c.tenant} ${c.code} ${JSON.stringify(c.params)}`);
        const q = rolled.resolve(c.tenant, c.code, c.params);
        const { rollups } = await store.usable(c.tenant);
        if (compile(rolled.get(c.code), DIALECTS[warehouse.dialect], { ...q, rollups }).sql.includes('insights_rollups')) fromRollup++;
      }
      // Everything but new customers (a derived cube), rolling measures and cohorts (read from the
      // cube's own rows, docs/model.md "Time intelligence") reads a rollup for at least one of its facts.
      const own = (code: string) => code === 'new_customers' || raw.isRolling(code) || raw.get(code).kind === 'cohort';
      const expected = all.filter((c) => !own(c.code)).length;
      assert.equal(fromRollup, expected, `${fromRollup} of ${all.length} cases read a rollup`);
    });

    // The PGlite test warehouse has no loader: this runs on DuckDB, and on PostgreSQL with DATABASE_URL.
    const noLoader = engine === 'postgres' && !postgresWarehouseUrl ? 'the PGlite test warehouse has no loader' : false;
    test('a load through the API refreshes the loading tenant before it answers; the answer includes the new rows', {
      skip: noLoader,
    }, async () => {
      const t = await buildTestApp({ clock, deps: { warehouse } });
      try {
        const owner = await t.login({ tenant: 'demo', user: 'o', role: 'owner' });
        const acmeBefore = (await store.status()).find((s) => s.rollup === 'orders.daily')!.tenants.find((x) => x.tenant === 'acme')!;
        const before = await call(t, owner, 'GET', '/api/v1/insights/revenue/execute?granularity=month&country=DE');
        const writes: string[] = [];
        const transaction = warehouse.transaction.bind(warehouse);
        warehouse.transaction = async (statements) => {
          writes.push(...statements.map((s) => `${s.sql} ${JSON.stringify(s.params ?? [])}`));
          return transaction(statements);
        };
        const csv =
          'order_id,customer_id,ordered_at,country,channel,status,items,revenue,discount\n' +
          '99000001,1,2026-03-10 10:00:00,DE,web,completed,1,1000.50,0\n99000002,2,2026-03-12 11:00:00,DE,mobile,completed,2,499.50,0\n';
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/v1/data/orders',
          headers: { authorization: owner, 'content-type': 'text/csv' },
          payload: csv,
        });
        warehouse.transaction = transaction;
        assert.equal(res.statusCode, 200, res.body);
        // Only demo's March partition of each rollup reading orders was rebuilt.
        // (ClickHouse keeps rollups in its own database as insights_rollups__*.)
        const deletesFrom = (name: string) =>
          writes.filter(
            (w) => w.startsWith(`DELETE FROM "insights_rollups"."${name}"`) || w.startsWith(`DELETE FROM "insights_rollups__${name}"`),
          );
        const deletes = deletesFrom('orders__daily');
        assert.deepEqual(
          deletes.map((w) => w.slice(w.indexOf('['))),
          ['["demo","2026-03-01","2026-04-01"]'],
        );
        assert.ok(deletesFrom('order_items__daily_by_product').length > 0, 'order_items rollup joins orders: refreshed too');
        const after = await call(t, owner, 'GET', '/api/v1/insights/revenue/execute?granularity=month&country=DE');
        const march = (r: any) => r.data.data.rows.find((x: any) => x.period === '2026-03-01').revenue;
        assert.equal(Math.round((march(after) - march(before)) * 100) / 100, 1500);
        const { rollups } = await t.app.services.rollups.usable('demo');
        assert.deepEqual(rollups.map((r) => r.id).sort(), ['order_items.daily_by_product', 'orders.daily'], 'current again for demo');
        const acmeAfter = (await store.status()).find((s) => s.rollup === 'orders.daily')!.tenants.find((x) => x.tenant === 'acme')!;
        assert.equal(acmeAfter.built_at, acmeBefore.built_at, "acme's rows were not rebuilt");
      } finally {
        await t.close();
      }
    });

    test('data loaded without a refresh outdates the tenant: its answers come from the raw rows until a build', async () => {
      const order = `INSERT INTO orders VALUES (99000003, 'acme', 3, TIMESTAMP '2026-03-20 09:00:00', 'FR', 'web', 'completed', 1, 250.00, 0)`;
      // ClickHouse keeps a row per load (the latest counts); the others one row per tenant.
      await warehouse.exec(
        engine === 'clickhouse'
          ? `${order}; INSERT INTO warehouse_tenant_versions VALUES ('acme', 'outside-${engine}', TIMESTAMP '2026-03-31 00:00:00')`
          : `CREATE TABLE IF NOT EXISTS warehouse_tenant_versions (tenant_id VARCHAR PRIMARY KEY, version VARCHAR NOT NULL, loaded_at TIMESTAMP NOT NULL);
         ${order};
         INSERT INTO warehouse_tenant_versions VALUES ('acme', 'outside-${engine}', TIMESTAMP '2026-03-31 00:00:00') ON CONFLICT (tenant_id) DO UPDATE SET version = excluded.version`,
      );
      const { rollups } = await store.usable('acme');
      if (versioned) assert.deepEqual(rollups, [], 'acme is outdated');
      const raw = new InsightsService(warehouse, clock, model);
      const rolled = new InsightsService(warehouse, clock, model, store);
      const params = { granularity: 'month', country: 'FR' };
      if (versioned)
        assert.deepEqual((await rolled.execute('acme', 'revenue', params)).rows, (await raw.execute('acme', 'revenue', params)).rows);
      await store.build();
      assert.equal((await store.usable('acme')).rollups.length, 2);
      assert.deepEqual((await rolled.execute('acme', 'revenue', params)).rows, (await raw.execute('acme', 'revenue', params)).rows);
    });

    test('refresh_every rebuilds a rollup for data changed outside the service, on the injected clock', async () => {
      // Rows written by other tools (an external WAREHOUSE_URL) do not move the data version.
      const text = fs
        .readFileSync(new URL('../../../models/demo.yml', import.meta.url), 'utf8')
        .replace('name: daily\n', 'name: daily\n        refresh_every: 1 hour\n');
      const refreshing = modelFromText(text);
      const at = new ManualClock(new Date('2026-04-01T08:00:00Z'));
      const periodic = new RollupStore(warehouse, refreshing.rollups, at);
      assert.deepEqual(
        (await periodic.build(['orders.daily'])).map((b) => b.rollup),
        ['orders.daily'],
      );
      await warehouse.exec(
        `INSERT INTO orders VALUES (99000004, 'acme', 4, TIMESTAMP '2026-03-21 09:00:00', 'FR', 'web', 'completed', 1, 125.00, 0)`,
      );
      const params = { granularity: 'month', country: 'FR' };
      const answers = async () => [
        (await new InsightsService(warehouse, clock, refreshing, periodic).execute('acme', 'revenue', params)).rows,
        (await new InsightsService(warehouse, clock, refreshing).execute('acme', 'revenue', params)).rows,
      ];
      const [stale, raw] = await answers();
      assert.notDeepEqual(stale, raw, 'the rollup does not know the new row yet');
      at.advance(3_599_000);
      assert.deepEqual(await periodic.refreshDue(), [], 'not due before an hour');
      at.advance(1_000);
      assert.deepEqual(
        (await periodic.refreshDue()).map((b) => b.rollup),
        ['orders.daily'],
        'only the rollup with refresh_every',
      );
      const [fresh, raw2] = await answers();
      assert.deepEqual(fresh, raw2);
      assert.deepEqual(await periodic.refreshDue(), [], 'the hour starts again at the rebuild');
    });
  });
}

test('closing the app stops a background build and waits for it: nothing runs on the warehouse after close', async () => {
  // The server closes the warehouse right after the app: a build still running then kept a DuckDB
  // thread waiting forever, and the process never exited (seen as a hung server in process tests).
  const warehouse = await testWarehouse(clock.now(), 20_000);
  const t = await buildTestApp({ clock, deps: { warehouse } });
  let inFlight = 0;
  let closed = false;
  const late: string[] = [];
  const transaction = warehouse.transaction.bind(warehouse);
  warehouse.transaction = async (statements, signal) => {
    if (closed) late.push('a build started after close');
    inFlight++;
    try {
      return await transaction(statements, signal);
    } finally {
      inFlight--;
    }
  };
  try {
    t.app.services.rollups.start(() => {});
    await new Promise((r) => setTimeout(r, 30));
    await t.close();
    closed = true;
    if (inFlight > 0) late.push(`${inFlight} build(s) still running at close`);
    await new Promise((r) => setTimeout(r, 1500));
    assert.deepEqual(late, []);
  } finally {
    await warehouse.close();
  }
});

describe('rollup matching and model checks', () => {
  const text = (extra: string) => `
cubes:
  - name: sales
    sql_table: sales
    tenant_column: tenant_id
    measures:
      - { name: amount, type: sum, sql: amount }
      - { name: mean, type: avg, sql: amount }
      - { name: buyers, type: count_distinct, sql: customer_id }
      - { name: paid, type: count, filters: [{ sql: "{CUBE}.paid" }] }
    dimensions:
      - { name: day, type: time, sql: day }
      - { name: store, type: string, sql: store }
      - { name: region, type: string, sql: region }
    segments:
      - { name: big, sql: "{CUBE}.amount > 100" }
    pre_aggregations:
${extra}
insights:
  - { code: amount, kind: timeseries, measures: [sales.amount], time_dimension: sales.day, filters: [sales.store, sales.region] }
  - { code: mean, kind: timeseries, measures: [sales.mean], time_dimension: sales.day }
  - { code: by_store, kind: breakdown, measures: [sales.amount], dimension: sales.store, time_dimension: sales.day }
  - { code: big, kind: timeseries, measures: [sales.amount], time_dimension: sales.day, segments: [sales.big] }
`;

  test('count_distinct is never rolled up; a derived cube has no rollups; problems name their place', () => {
    assert.throws(
      () => modelFromText(text('      - { name: r, measures: [buyers], time_dimension: day, granularity: day }')),
      (err: ModelError) =>
        err.issues.some((i) => /count_distinct/.test(i.message) && i.path === 'cubes[0].pre_aggregations[0].measures[0]'),
    );
    assert.throws(
      () =>
        modelFromText(text('      - { name: r, measures: [amount], time_dimension: day, granularity: month, partition_granularity: day }')),
      (err: ModelError) => err.issues.some((i) => /must not be finer/.test(i.message)),
    );
  });

  test('a rollup answers only what it answers exactly', () => {
    const m = modelFromText(
      text(`      - { name: monthly, measures: [amount, mean], dimensions: [store], time_dimension: day, granularity: month }
      - { name: weekly, measures: [amount], time_dimension: day, granularity: week }`),
    );
    const [monthly, weekly] = m.rollups;
    const def = (code: string) => m.insights.find((i) => i.code === code)!;
    const fact = (code: string) => def(code).plan.facts[0];
    const q = (granularity: string | null, from: string, to: string, filters: Record<string, unknown> = {}) => ({
      granularity: granularity as never,
      filters,
      windows: [{ from, to }],
    });
    const pick = (code: string, query: ReturnType<typeof q>, rollups = m.rollups) =>
      rollupFor(fact(code), { ...query, filtered: Object.keys(query.filters).map((name) => def(code).filterRefs[name]) }, rollups)?.id;
    assert.equal(pick('amount', q('month', '2026-01-01', '2026-03-31')), 'sales.monthly');
    assert.equal(pick('amount', q('quarter', '2026-01-01', '2026-03-31')), 'sales.monthly', 'coarser is fine');
    assert.equal(pick('amount', q('week', '2026-01-05', '2026-03-29')), 'sales.weekly');
    assert.equal(pick('amount', q('month', '2026-01-05', '2026-03-31')), undefined, 'a window starting mid-month is not whole buckets');
    assert.equal(pick('amount', q('day', '2026-01-01', '2026-03-31')), undefined, 'finer than every rollup');
    assert.equal(pick('amount', q('month', '2026-01-01', '2026-03-31', { store: 'north' })), 'sales.monthly');
    assert.equal(
      pick('amount', q('month', '2026-01-01', '2026-03-31', { region: 'EU' })),
      undefined,
      'region is not a dimension of any rollup',
    );
    assert.equal(pick('by_store', q(null, '2026-01-01', '2026-03-31')), 'sales.monthly');
    assert.equal(
      pick('by_store', q(null, '2026-01-05', '2026-03-29'), [weekly]),
      undefined,
      'store is not a dimension of the weekly rollup',
    );
    assert.equal(pick('big', q('month', '2026-01-01', '2026-03-31')), undefined, 'a segment is not in any rollup');
    assert.equal(pick('mean', q('month', '2026-01-01', '2026-03-31')), 'sales.monthly', 'avg as sum and count');
    assert.deepEqual(
      monthly.measures.get('mean')!.partials.map((p) => p.agg),
      ['sum', 'count'],
    );
    assert.equal(rollsUpTo('week', 'month'), false);
    assert.equal(rollsUpTo('day', 'week'), true);
    assert.equal(rollsUpTo('month', 'year'), true);
  });
});
