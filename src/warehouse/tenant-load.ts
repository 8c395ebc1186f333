// A tenant's data file loaded, as `insights data load` and POST /api/v1/data/{table} both run it:
// the tenant's data version read, the file loaded (all or nothing, load/), and that tenant's
// rollups refreshed from the committed rows (rollups/). docs/data.md tells users the rules.
import { fileColumns, type FileColumn } from './load/reader.ts';
import { BlankDateInReader } from './load/rules.ts';
import type { RollupBuild, RollupStore } from './rollups/rollups.ts';
import type { LoadRequest, LoadResult, Warehouse } from './warehouse.ts';

export interface TenantLoaded {
  result: LoadResult;
  /** The rollups refreshed after the commit, or why one was not (the load stands either way). */
  refreshed: RollupBuild[];
  /** The file's columns as they were read (text dates with their format). */
  read: FileColumn[];
}

/**
 * Loads `request` and then refreshes the tenant's rollups. The data version is read first: over
 * the API the caller runs this in the tenant's turn, so no other load of the tenant commits
 * between; rollups current with that version that do not read the table stay current. A refresh
 * that fails is recorded (and with `retry` retried in the background), never thrown.
 */
export async function loadTenantData(
  warehouse: Warehouse,
  rollups: Pick<RollupStore, 'refreshAfterLoad' | 'timeRangesOf'> | undefined,
  request: LoadRequest,
  options: { retry?: boolean } = {},
): Promise<TenantLoaded> {
  const { table, tenantId, mode } = request;
  const versionBefore = (await warehouse.version(tenantId)) ?? '';
  const load = () => warehouse.load({ ...request, timeRangesOf: rollups?.timeRangesOf(table, mode) });
  // A CSV reader that parsed a column's dates met a field of spaces alone, which is NULL: nothing
  // was kept, and the same load runs again with its dates converted in SQL (load/reader.ts).
  const result = await load().catch((err: unknown) => {
    if (!(err instanceof BlankDateInReader) || request.file.datesInSql) throw err;
    request.file.datesInSql = true;
    return load();
  });
  request.onProgress?.({ step: 'refreshing' });
  const refreshed =
    (await rollups?.refreshAfterLoad({ table, tenantId, mode, timeRanges: result.timeRanges, versionBefore }, options)) ?? [];
  return { result, refreshed, read: fileColumns(request.file) };
}
