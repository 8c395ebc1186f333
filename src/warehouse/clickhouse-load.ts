// Loading files into ClickHouse: not wired yet (see docs/clickhouse.md); refused with a clear reason.
import type { ClickHouseClient } from '@clickhouse/client';
import type { ClickHouseTopology } from './clickhouse-ddl.ts';
import { LoadError, type LoadRequest, type LoadResult } from './load.ts';

/** What a load needs of the warehouse: its client, its topology and its query(). */
export interface ClickHouseTarget {
  readonly client: ClickHouseClient;
  readonly topology: ClickHouseTopology;
  query(sql: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
}

export async function loadIntoClickHouse(_ch: ClickHouseTarget, _request: LoadRequest): Promise<LoadResult> {
  throw new LoadError('input', 'Loading files into a ClickHouse warehouse is not available in this version.');
}
