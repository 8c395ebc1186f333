// The values of each filter dimension in the data a caller may read (the demo's category names, a
// model's plans…), so tool schemas can offer them. Read through the insight engine like any other
// answer: each filter is listed by a breakdown or top insight grouped by that dimension, over ten
// years, with the caller's own scope; a dimension no such insight groups by has no list.
import type { AuthContext } from '../../auth/context.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import { addDays } from '../../semantic/periods.ts';
import type { InsightsService } from '../insights/insights.service.ts';

const TTL_MS = 10 * 60_000;
const MAX_CALLERS = 1000;

type Engine = Pick<InsightsService, 'model' | 'execute' | 'dataVersion' | 'today'>;

export class FilterValues {
  private readonly known = new Map<string, { at: number; version: string | undefined; values: Record<string, string[]> }>();

  constructor(
    private readonly insights: Engine,
    private readonly clock: Clock,
  ) {}

  /**
   * Per filter name, its values in the caller's data. Kept per caller (not per tenant), so whatever
   * narrows what a caller reads narrows these lists too; a load (a new data version) refreshes them.
   */
  async of(auth: AuthContext): Promise<Record<string, string[]>> {
    const key = JSON.stringify([auth.tenantId, auth.userId, auth.attributes ?? null]);
    const version = await this.insights.dataVersion(auth.tenantId);
    const now = this.clock.now().getTime();
    const hit = this.known.get(key);
    if (hit && hit.version === version && now - hit.at < TTL_MS) return hit.values;
    const values: Record<string, string[]> = {};
    const today = this.insights.today();
    const names = new Set(this.insights.model.insights.flatMap((d) => d.filters));
    for (const name of names) {
      const lister = this.insights.model.insights.find(
        (d) => (d.kind === 'breakdown' || d.kind === 'top') && d.dimensions[0]?.name === name,
      );
      if (!lister) continue;
      try {
        const res = await this.insights.execute(auth, lister.code, {
          date_from: addDays(today, -3600),
          date_to: today,
          ...(lister.limit ? { limit: lister.limit.max } : {}),
        });
        values[name] = [...new Set(res.rows.map((r) => r[name]).filter((c): c is string => typeof c === 'string' && c.length > 0))].sort();
      } catch (err) {
        // A table not loaded yet: the filter has no values to offer until it is.
        if (!(err instanceof AppError)) throw err;
      }
    }
    if (this.known.size >= MAX_CALLERS) this.known.clear();
    this.known.set(key, { at: now, version, values });
    return values;
  }
}
