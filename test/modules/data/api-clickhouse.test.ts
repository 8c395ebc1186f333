// The data API on a ClickHouse warehouse (the chdb-backed server over HTTP; skipped, saying why,
// where chdb is not installed): the same suite as on DuckDB and PostgreSQL, then what is
// ClickHouse's own: the tables a first load creates, all or nothing through a staging table, and
// a replace that readers see whole, month by month, and other tenants never notice.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { buildTestApp } from '../../helpers/app.ts';
import { clickhouseSkip, emptyClickHouseWarehouse, testClickHouseWarehouse } from '../../helpers/clickhouse.ts';
import { clock, dataApiTests, upload, uploadModel } from './support.ts';

if (clickhouseSkip) {
  console.log(`# skipped: ${clickhouseSkip}`);
  test('the data API on ClickHouse', { skip: clickhouseSkip }, () => {});
} else {
  dataApiTests((now) => testClickHouseWarehouse(now, 600), { INSIGHTS_DATA_MAX_BYTES: '2000' });

  const EVENTS = (tenantRows: number, months: string[], value: number) =>
    'at,kind,n\n' +
    months
      .flatMap((m) =>
        Array.from({ length: tenantRows }, (_, i) => `${m}-${String((i % 27) + 1).padStart(2, '0')} 10:00:00,visit,${value}\n`),
      )
      .join('');

  test('a first load creates a MergeTree table ordered by (tenant, time), a partition per month; a failed load leaves nothing', async () => {
    const warehouse = await emptyClickHouseWarehouse();
    const t = await buildTestApp({ clock, env: { INSIGHTS_MODEL: uploadModel() }, deps: { warehouse } });
    try {
      const owner = await t.login({ tenant: 'demo', user: 'o', role: 'owner' });
      const res = await upload(t, owner, { table: 'events', body: EVENTS(3, ['2026-01', '2026-02'], 1) });
      assert.equal(res.statusCode, 200, res.body);
      const [ddl] = await warehouse.query(
        `SELECT create_table_query AS q FROM system.tables WHERE database = currentDatabase() AND name = 'events'`,
      );
      assert.match(String(ddl.q), /ENGINE = MergeTree PARTITION BY toYYYYMM\(at\) ORDER BY \(tenant_id, at\)/);
      assert.match(
        String(ddl.q),
        /`at` Nullable\(DateTime64\(6\)\), `kind` Nullable\(String\), `n` Nullable\(Float64\), `tenant_id` String/,
      );
      const parts = await warehouse.query(
        `SELECT DISTINCT partition AS p FROM system.parts WHERE database = currentDatabase() AND table = 'events' AND active ORDER BY p`,
      );
      assert.deepEqual(
        parts.map((p) => p.p),
        ['202601', '202602'],
      );

      // A bad row on line 5: refused with the same message as on the other engines; no rows, no staging table.
      const bad = await upload(t, owner, {
        table: 'events',
        body: 'at,kind,n\n2026-03-01 10:00:00,visit,1\n2026-03-02 10:00:00,visit,2\n2026-03-03 10:00:00,visit,3\n2026-03-04 10:00:00,visit,lots\n',
      });
      assert.equal(bad.statusCode, 400, bad.body);
      assert.match(bad.data.detail, /^Line 5, column n: "lots" is not a valid DOUBLE\./);
      assert.deepEqual(await warehouse.query(`SELECT count() AS n FROM events`), [{ n: 6 }]);
      const tables = await warehouse.query(
        `SELECT name FROM system.tables WHERE database = currentDatabase() AND name LIKE 'events%' ORDER BY name`,
      );
      assert.deepEqual(
        tables.map((r) => r.name),
        ['events'],
        'the staging table is gone',
      );
    } finally {
      await t.close();
      await warehouse.close();
    }
  });

  test('a replace is whole for readers: each month shows the old rows or the new, another tenant never changes', async () => {
    const warehouse = await emptyClickHouseWarehouse();
    const t = await buildTestApp({ clock, env: { INSIGHTS_MODEL: uploadModel() }, deps: { warehouse } });
    try {
      const demo = await t.login({ tenant: 'demo', user: 'o', role: 'owner' });
      const acme = await t.login({ tenant: 'acme', user: 'o', role: 'owner' });
      const months = ['2026-01', '2026-02', '2026-03'];
      assert.equal((await upload(t, demo, { table: 'events', body: EVENTS(1000, months, 1) })).statusCode, 200);
      assert.equal((await upload(t, acme, { table: 'events', body: EVENTS(500, months, 7) })).statusCode, 200);
      const perMonth = async (tenant: string) =>
        Object.fromEntries(
          (
            await warehouse.query(
              `SELECT toString(toYYYYMM(at)) AS m, sum(n) AS s FROM events WHERE tenant_id = $1 GROUP BY m ORDER BY m`,
              [tenant],
            )
          ).map((r) => [r.m, Number(r.s)]),
        );
      const acmeBefore = await perMonth('acme');
      // 50 000 new rows in the same months, value 2: every month of demo goes from 1000 to 33 334 or so.
      const replacing = upload(t, demo, { table: 'events', body: EVENTS(16_667, months, 2), mode: 'replace' });
      let done = false;
      void replacing.then(() => (done = true));
      const seen: Record<string, number>[] = [];
      while (!done) {
        seen.push(await perMonth('demo'));
        assert.deepEqual(await perMonth('acme'), acmeBefore, 'acme never changes');
      }
      assert.equal((await replacing).statusCode, 200);
      const after = await perMonth('demo');
      assert.deepEqual(after, { 202601: 33_334, 202602: 33_334, 202603: 33_334 });
      for (const s of seen)
        for (const m of ['202601', '202602', '202603']) assert.ok(s[m] === 1000 || s[m] === 33_334, `month ${m} seen at ${s[m]}`);
    } finally {
      await t.close();
      await warehouse.close();
    }
  });

  test('a client that goes away cancels its ClickHouse load, reading or inserting: no rows, no staging table, the queue is free', async () => {
    const warehouse = await emptyClickHouseWarehouse();
    const t = await buildTestApp({ clock, env: { INSIGHTS_MODEL: uploadModel() }, deps: { warehouse } });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as AddressInfo;
    try {
      const owner = await t.login({ tenant: 'demo', user: 'o', role: 'owner' });
      let running: Promise<unknown> | undefined;
      let loadStarted!: () => void;
      const load = warehouse.load.bind(warehouse);
      warehouse.load = (req) => {
        running = load(req);
        loadStarted();
        return running as ReturnType<typeof load>;
      };
      // The INSERT of the staged rows waits (up to 3 s) until the request is cancelled, so the
      // second round is cancelled while inserting, never before or after.
      const insert = warehouse.client.insert.bind(warehouse.client);
      let holdInsert = false;
      let inserting!: () => void;
      warehouse.client.insert = (async (params: Parameters<typeof insert>[0]) => {
        if (holdInsert) {
          inserting();
          const signal = params.abort_signal;
          for (let i = 0; i < 150 && !signal?.aborted; i++) await new Promise((r) => setTimeout(r, 20));
        }
        return insert(params);
      }) as typeof insert;
      const body = `at,kind,n\n${'2026-01-05 10:00:00,visit,1\n'.repeat(300_000)}`;
      const send = () => {
        const req = http.request({
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/api/v1/data/events',
          headers: { authorization: owner, 'content-type': 'text/csv', 'content-length': Buffer.byteLength(body) },
        });
        req.on('error', () => {});
        req.end(body);
        return req;
      };
      const stagingTables = async () =>
        (await warehouse.query(`SELECT name FROM system.tables WHERE database = currentDatabase() AND name LIKE 'events__load%'`)).length;
      const demoRows = async () => {
        const exists = await warehouse.query(
          `SELECT count() AS n FROM system.tables WHERE database = currentDatabase() AND name = 'events'`,
        );
        if (Number(exists[0].n) === 0) return 0;
        return Number((await warehouse.query(`SELECT count() AS n FROM events WHERE tenant_id = 'demo'`))[0].n);
      };

      // 1. While DuckDB reads the body.
      let started = new Promise<void>((r) => (loadStarted = r));
      let req = send();
      await started;
      await new Promise((r) => setTimeout(r, 30));
      req.destroy();
      // Before: the load went on and committed 300 000 rows nobody would hear of.
      await assert.rejects(running!);
      assert.equal(await demoRows(), 0);
      assert.equal(await stagingTables(), 0);

      // 2. While the staged rows stream into ClickHouse.
      holdInsert = true;
      started = new Promise<void>((r) => (loadStarted = r));
      const insertStarted = new Promise<void>((r) => (inserting = r));
      req = send();
      await started;
      await insertStarted;
      req.destroy();
      await assert.rejects(running!);
      holdInsert = false;
      assert.equal(await demoRows(), 0);
      assert.equal(await stagingTables(), 0, 'the staging table is dropped');

      // The tenant's turn is free again: its next load runs at once.
      const small = await upload(t, owner, { table: 'events', body: 'at,kind,n\n2026-01-05 10:00:00,visit,1\n' });
      assert.equal(small.statusCode, 200, small.body);
      assert.equal(await demoRows(), 1);
    } finally {
      await t.close();
      await warehouse.close();
    }
  });
}
