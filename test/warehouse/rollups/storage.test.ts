// DuckDB stores a rollup's 128-bit columns (sums of money, sums of integers) uncompressed: bit-packed
// they scan ~60× slower than any other column (docs/performance.md). Same types, same figures.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { ManualClock } from '../../../src/lib/clock.ts';
import { InsightsService } from '../../../src/modules/insights/insights.service.ts';
import { demoModel } from '../../../src/semantic/model.ts';
import { DuckDbWarehouse } from '../../../src/warehouse/duckdb/duckdb.ts';
import { seedDemo } from '../../../src/warehouse/demo/demo.ts';
import { RollupStore } from '../../../src/warehouse/rollups/rollups.ts';

test('a DuckDB file stores the rollups’ 128-bit columns uncompressed, the rest as DuckDB chooses', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'insights-rollup-storage-'));
  const clock = new ManualClock(new Date('2026-03-31T12:00:00Z'));
  const wh = await DuckDbWarehouse.open(path.join(dir, 'w.duckdb'), { memoryLimit: '256MB', threads: 1 });
  try {
    await seedDemo(wh, { rows: 20_000, tenants: ['demo'], endDay: '2026-03-31', now: clock.now() });
    const model = demoModel();
    const raw = new InsightsService(wh, clock, model);
    const params = { granularity: 'week', country: 'DE' } as const;
    const before = await raw.execute('demo', 'revenue', params);
    const rollups = new RollupStore(wh, model.rollups, clock);
    await rollups.build(['orders.daily']);
    await wh.exec('CHECKPOINT');
    const storage = await wh.query(
      `SELECT c.data_type AS type, s.compression AS compression FROM pragma_storage_info('insights_rollups.orders__daily') s
       JOIN duckdb_columns() c ON c.schema_name = 'insights_rollups' AND c.table_name = 'orders__daily' AND c.column_name = s.column_name
       WHERE s.segment_type <> 'VALIDITY'`,
    );
    const wide = storage.filter((s) => /DECIMAL\(38|HUGEINT/.test(String(s.type)));
    assert.ok(wide.length > 0, 'the rollup has a sum of money');
    for (const s of wide) assert.equal(s.compression, 'Uncompressed', `${s.type} is stored ${s.compression}`);
    assert.ok(
      storage.some((s) => !/DECIMAL\(38|HUGEINT/.test(String(s.type)) && s.compression !== 'Uncompressed'),
      'other columns stay compressed',
    );
    // Answered from the rollup now, with the same figures.
    const service = new InsightsService(wh, clock, model, rollups);
    const after = await service.execute('demo', 'revenue', params);
    assert.deepEqual(after.rows, before.rows);
    assert.ok((await rollups.usable('demo')).rollups.length > 0);
  } finally {
    await wh.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
