// The rollup schema's two small tables: `state` (which tenant's rows of a rollup were built from
// which data version and definition) and `problems` (why a rollup is not built for a tenant: a
// refresh that failed and is retried, or rows it cannot bucket). SQL for both lives here.
import type { Clock } from '../../lib/clock.ts';
import { ROLLUP_SCHEMA } from '../../semantic/rollups.ts';
import type { RollupDdl, TransactionStatement } from './ddl.ts';
import type { Warehouse } from '../warehouse.ts';
import { Flights } from '../../lib/flights.ts';

export const STATE = `"${ROLLUP_SCHEMA}"."state"`;
export const PROBLEMS = `"${ROLLUP_SCHEMA}"."problems"`;

export interface StateRow {
  definition: string;
  data_version: string;
  version: string;
  built_at: string;
}

export interface RollupProblem {
  rollup: string;
  /** '' when the whole rollup failed (a build of every tenant). */
  tenant: string;
  problem: string;
  attempts: number;
  failed_at: string;
}

const asIso = (v: unknown) => `${String(v).replace(' ', 'T').slice(0, 19)}Z`;

/** The first line of an error, as a problem is recorded and a build reports it. */
export const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err)).split('\n')[0];

export class RollupState {
  private ready?: Promise<void>;
  private readonly recent = new Map<string, { at: number; rows: Map<string, StateRow> }>();
  /** State reads in flight, shared; keyed by the count of forgetRecent() calls, so none begun before a write is joined after it. */
  private readonly reading = new Flights();
  private forgotten = 0;
  /** A warehouse written only by this process (the embedded one) has its state read once. */
  private readonly memoMs: number;

  constructor(
    private readonly warehouse: Warehouse,
    private readonly ddl: RollupDdl,
    private readonly clock: Clock,
  ) {
    this.memoMs = warehouse.soleWriter ? Number.POSITIVE_INFINITY : 2_000;
  }

  ensure(): Promise<void> {
    this.ready ??= (async () => {
      await this.warehouse.exec(
        this.ddl.schema(
          `"${ROLLUP_SCHEMA}"`,
          STATE,
          'rollup VARCHAR NOT NULL, tenant VARCHAR NOT NULL, definition VARCHAR NOT NULL, data_version VARCHAR NOT ' +
            'NULL, version VARCHAR NOT NULL, built_at TIMESTAMP NOT NULL, PRIMARY KEY (rollup, tenant)',
        ),
      );
      // A warehouse built by an older version has the state table only.
      await this.warehouse.exec(this.ddl.problems(PROBLEMS));
    })().catch((err) => {
      this.ready = undefined;
      throw err;
    });
    return this.ready;
  }

  /** built_at as stored: the injected clock's time, which refresh_every is measured on. */
  now(): string {
    return this.clock.now().toISOString().replace('T', ' ').slice(0, 19);
  }

  async ofTenant(tenantId: string): Promise<Map<string, StateRow>> {
    const found = await this.warehouse.query(
      `SELECT rollup, definition, data_version, version, CAST(built_at AS VARCHAR) AS built_at FROM ${STATE} WHERE tenant = $1`,
      [tenantId],
    );
    return new Map(
      found.map((r) => [
        String(r.rollup),
        {
          definition: String(r.definition),
          data_version: String(r.data_version),
          version: String(r.version),
          built_at: String(r.built_at),
        },
      ]),
    );
  }

  /**
   * A tenant's state rows as read at most a moment ago (every query asks which rollups are
   * current); empty when there is no state table yet, as nothing is built.
   */
  /** recentOfTenant's answer when it is remembered and fresh (no read due); else undefined. */
  knownRecentOfTenant(tenantId: string): Map<string, StateRow> | undefined {
    const memo = this.recent.get(tenantId);
    return memo && Date.now() - memo.at < this.memoMs ? memo.rows : undefined;
  }

  async recentOfTenant(tenantId: string): Promise<Map<string, StateRow>> {
    const memo = this.recent.get(tenantId);
    if (memo && Date.now() - memo.at < this.memoMs) return memo.rows;
    const forgotten = this.forgotten;
    return this.reading.join(`${forgotten}\u0000${tenantId}`, async () => {
      let rows = new Map<string, StateRow>();
      try {
        rows = await this.ofTenant(tenantId);
      } catch {
        // No state table yet: nothing is built.
      }
      if (this.recent.size > 10_000) this.recent.clear();
      // Remembered unless a write came meanwhile (what was read may predate it).
      if (forgotten === this.forgotten) this.recent.set(tenantId, { at: Date.now(), rows });
      return rows;
    });
  }

  /** After a write: the tenant's (or every tenant's) state is read afresh. */
  forgetRecent(tenantId?: string): void {
    this.forgotten++;
    if (tenantId === undefined) this.recent.clear();
    else this.recent.delete(tenantId);
  }

  /** Whether any tenant's rows of the rollup were built with this definition. */
  async builtWith(rollup: string, definition: string): Promise<boolean> {
    const built = await this.warehouse.query(`SELECT count(*) AS n FROM ${STATE} WHERE rollup = $1 AND definition = $2`, [
      rollup,
      definition,
    ]);
    return Number(built[0]?.n ?? 0) !== 0;
  }

  /** Every tenant's state row of one rollup, by tenant. */
  async ofRollup(rollup: string): Promise<{ tenant: string; definition: string; data_version: string; built_at: string }[]> {
    const rows = await this.warehouse.query(
      `SELECT tenant, definition, data_version, built_at FROM ${STATE} WHERE rollup = $1 ORDER BY tenant`,
      [rollup],
    );
    return rows.map((s) => ({
      tenant: String(s.tenant),
      definition: String(s.definition),
      data_version: String(s.data_version),
      built_at: asIso(s.built_at),
    }));
  }

  /** When the rollup's oldest tenant build was made, in ms on the clock; NaN when never built. */
  async oldestBuild(rollup: string): Promise<number> {
    const [row] = await this.warehouse.query(`SELECT CAST(min(built_at) AS VARCHAR) AS at FROM ${STATE} WHERE rollup = $1`, [rollup]);
    return row?.at ? Date.parse(asIso(row.at)) : Number.NaN;
  }

  /** The statements writing one tenant's state row (replacing the one there). */
  write(
    rollup: string,
    tenant: string,
    row: { definition: string; data_version: string; version: string; built_at?: string },
  ): TransactionStatement[] {
    return [
      this.forget(rollup, tenant),
      {
        sql: `INSERT INTO ${STATE} VALUES ($1, $2, $3, $4, $5, CAST($6 AS TIMESTAMP))`,
        params: [rollup, tenant, row.definition, row.data_version, row.version, (row.built_at ?? this.now()).slice(0, 19)],
      },
    ];
  }

  forget(rollup: string, tenant: string): TransactionStatement {
    return this.ddl.delete(STATE, 'rollup = $1 AND tenant = $2', [rollup, tenant]);
  }

  async problems(): Promise<RollupProblem[]> {
    const rows = await this.warehouse.query(`SELECT rollup, tenant, problem, attempts, failed_at FROM ${PROBLEMS} ORDER BY rollup, tenant`);
    return rows.map((r) => ({
      rollup: String(r.rollup),
      tenant: String(r.tenant),
      problem: String(r.problem),
      attempts: Number(r.attempts),
      failed_at: asIso(r.failed_at),
    }));
  }

  async problemOf(rollup: string, tenant: string): Promise<RollupProblem | undefined> {
    return (await this.problems()).find((p) => p.rollup === rollup && p.tenant === tenant);
  }

  /** Records why `rollup` is not built for `tenant`; `forgetState` also makes the tenant not current. */
  async record(rollup: string, tenant: string, problem: string, attempts: number, forgetState = false): Promise<void> {
    await this.warehouse.transaction([
      ...(forgetState ? [this.forget(rollup, tenant)] : []),
      this.ddl.delete(PROBLEMS, 'rollup = $1 AND tenant = $2', [rollup, tenant]),
      {
        sql: `INSERT INTO ${PROBLEMS} VALUES ($1, $2, $3, $4, CAST($5 AS TIMESTAMP))`,
        params: [rollup, tenant, problem.slice(0, 1000), attempts, this.now()],
      },
    ]);
  }

  /** The statement clearing a solved problem (built or refreshed since). */
  solved(rollup: string, tenant?: string): TransactionStatement {
    return tenant === undefined
      ? this.ddl.delete(PROBLEMS, 'rollup = $1', [rollup])
      : this.ddl.delete(PROBLEMS, 'rollup = $1 AND tenant = $2', [rollup, tenant]);
  }
}
