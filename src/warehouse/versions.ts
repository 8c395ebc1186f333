// Warehouse.version for every engine: the data version (warehouse_meta) and each tenant's load
// version, remembered for `ttlMs` (forever for an embedded file only this process writes; briefly
// for a server other processes load into) and forgotten at once when this process writes.
import { Flights } from '../lib/flights.ts';
import { TENANT_VERSIONS_TABLE } from './load/rules.ts';

type Read = (sql: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;

interface Memo {
  value: string | undefined;
  at: number;
  /** known()'s answer for this tenant memo with the base memo it was joined with (one per pair, not per call). */
  joined?: { base: Memo; answer: { readonly value: string | undefined } };
}

export class VersionMemo {
  private base: Memo | undefined;
  private readonly tenants = new Map<string, Memo>();
  /**
   * Reads in flight, shared by concurrent callers (a start or a load sends many at once). Keyed
   * by the count of forget() calls too: a caller after a write never joins a read begun before it.
   */
  private readonly reading = new Flights();
  private forgotten = 0;

  /** `tenantSql` reads one column `version` for the tenant $1 (no row: never loaded). */
  constructor(
    private readonly read: Read,
    private readonly ttlMs: number,
    private readonly tenantSql = `SELECT version FROM ${TENANT_VERSIONS_TABLE} WHERE tenant_id = $1`,
    private readonly baseSql = 'SELECT version FROM warehouse_meta WHERE id = 1',
  ) {}

  forget(): void {
    this.forgotten++;
    this.base = undefined;
    this.tenants.clear();
  }

  /** A missing table (nothing seeded or loaded yet) reads as undefined. */
  private async fresh(memo: Memo | undefined, sql: string, params: unknown[]): Promise<Memo> {
    const now = Date.now();
    if (memo && now - memo.at < this.ttlMs) return memo;
    return this.reading.join(`${this.forgotten}\u0000${sql}\u0000${params.join('\u0000')}`, async () => {
      let value: string | undefined;
      try {
        const rows = await this.read(sql, params);
        value = rows.length && rows[0].version !== null && rows[0].version !== undefined ? String(rows[0].version) : undefined;
      } catch {
        value = undefined;
      }
      return { value, at: now };
    });
  }

  /**
   * The tenant's version as version() would answer it, when both memos are fresh (no read due);
   * undefined when a read is due. Lets a cache hit be answered in the request's own tick.
   */
  known(tenantId: string): { readonly value: string | undefined } | undefined {
    const now = Date.now();
    const base = this.base;
    const memo = this.tenants.get(tenantId);
    if (!base || !memo || now - base.at >= this.ttlMs || now - memo.at >= this.ttlMs) return undefined;
    // The same string while both memos stay: the caches keyed by it hash it once.
    if (memo.joined?.base !== base) {
      const value = base.value === undefined && memo.value === undefined ? undefined : `${base.value ?? ''}/${memo.value ?? ''}`;
      memo.joined = { base, answer: { value } };
    }
    return memo.joined.answer;
  }

  async version(tenantId?: string): Promise<string | undefined> {
    this.base = await this.fresh(this.base, this.baseSql, []);
    if (tenantId === undefined) return this.base.value;
    const memo = await this.fresh(this.tenants.get(tenantId), this.tenantSql, [tenantId]);
    if (this.tenants.size > 10_000) this.tenants.clear();
    this.tenants.set(tenantId, memo);
    const base = this.base.value;
    return base === undefined && memo.value === undefined ? undefined : `${base ?? ''}/${memo.value ?? ''}`;
  }
}
