// What chat reads of a tenant's data to understand and answer a question: the first and last day
// of an insight's data (so a question that names no period is not answered over an empty window)
// and the values of each filter dimension (so "in Germany" or a plan's name is read as a filter).
// Both are read as the caller, row-level access filters included, and kept per data version: a
// load changes the version, so the next question sees the new data.
import type { AuthContext } from '../../auth/context.ts';
import type { Clock } from '../../lib/clock.ts';
import { Flights } from '../../lib/flights.ts';
import { addDays, defaultFrom } from '../../semantic/periods.ts';
import type { Granularity } from '../../semantic/types.ts';
import { MAX_PERIODS } from '../insights/insights.params.ts';
import type { InsightsService } from '../insights/insights.service.ts';
import { executeParamsOf } from './chat.queries.ts';
import type { StructuredQuery } from './parser/index.ts';

export type Log = (details: Record<string, unknown>, message: string) => void;

const VALUES_TTL_MS = 10 * 60_000;
/** A filter dimension with more values than this is not learnt as words (ids, free text). */
const MAX_FILTER_WORDS = 2000;

export class TenantData {
  /** Per tenant (and attributes): the values of each filter dimension in its data, and the data version they are of. */
  private readonly values = new Map<string, { at: number; version: string | undefined; values: Record<string, string[]> }>();
  /** Per tenant and insight: the first and last day of its data, and the data version they are of. */
  private readonly spans = new Map<string, { version: string | undefined; span: { from: string; to: string } | undefined }>();
  /** Spans and filter values being read: concurrent questions of one tenant wait for one read (lib/flights.ts). */
  private readonly reading = new Flights();

  constructor(
    private readonly insights: InsightsService,
    /** The model's filter dimensions whose values chat learns as words. */
    private readonly filters: readonly { name: string }[],
    private readonly clock: Clock,
    private readonly log: Log,
  ) {}

  /** The data's own window for a query without one, or undefined where the default window will do. */
  async window(
    auth: AuthContext,
    q: StructuredQuery,
    allData: boolean,
  ): Promise<{ from: string; to: string; kind: 'all' | 'capped' | 'latest' } | undefined> {
    const def = this.insights.find(q.insight_code);
    if (!def) return undefined;
    let window: { from: string; to: string };
    try {
      window = this.insights.resolve(auth, q.insight_code, executeParamsOf(q)).window;
    } catch {
      return undefined;
    }
    const outside = (span: { from: string; to: string }) => span.to < window.from || span.from > window.to;
    const span = await this.span(auth, q.insight_code);
    if (!span || (!allData && !outside(span))) return undefined;
    if (def.kind === 'timeseries' && !allData) {
      // A series: its usual length, ending where the data ends.
      const from = defaultFrom(def.kind, (q.granularity ?? def.defaultGranularity ?? null) as Granularity | null, span.to);
      return { from: from < span.from ? span.from : from, to: span.to, kind: 'latest' };
    }
    const earliest = addDays(span.to, -(MAX_PERIODS - 1));
    return span.from < earliest ? { from: earliest, to: span.to, kind: 'capped' } : { ...span, kind: 'all' };
  }

  /** The first and last day of an insight's data as the caller sees it, cached per data version and attributes. */
  private async span(auth: AuthContext, code: string): Promise<{ from: string; to: string } | undefined> {
    const { tenantId } = auth;
    const version = await this.insights.dataVersion(tenantId);
    const key = JSON.stringify([tenantId, code, auth.attributes ?? null]);
    const hit = this.spans.get(key);
    if (hit && hit.version === version) return hit.span;
    return this.reading.join(JSON.stringify(['span', key, version ?? null]), async () => {
      const span = await this.insights.dataSpan(auth, code);
      if (this.spans.size > 10_000) this.spans.clear();
      this.spans.set(key, { version, span });
      return span;
    });
  }

  /**
   * The values of each filter dimension in all of the tenant's data (the demo's category names, a
   * model's plans…), read through an insight that takes the filter, at most MAX_FILTER_WORDS of
   * them (a dimension with more is not a list of words). Cached per tenant and data version: a
   * load changes the version, so the next question sees the new values.
   */
  async filterValues(auth: AuthContext): Promise<Record<string, string[]>> {
    const { tenantId } = auth;
    const version = await this.insights.dataVersion(tenantId);
    // Read as the caller: a row-level access filter narrows the values offered, so they are kept per set of attributes.
    const cacheKey = auth.attributes ? JSON.stringify([tenantId, auth.attributes]) : tenantId;
    const hit = this.values.get(cacheKey);
    const now = this.clock.now().getTime();
    if (hit && hit.version === version && now - hit.at < VALUES_TTL_MS) return hit.values;
    return this.reading.join(JSON.stringify(['values', cacheKey, version ?? null]), async () => {
      // Side by side: the warehouse's read lanes run them on its pooled connections in the tenant's turn.
      const found = await Promise.all(
        this.filters.map(async ({ name }) => {
          const reader = this.insights.model.insights.find((d) => d.filters.includes(name));
          const list = reader && (await this.insights.filterValuesOf(auth, reader.code, name, MAX_FILTER_WORDS));
          if (!list) this.log({ filter: name, insight: reader?.code }, 'chat could not list the values of a filter');
          return [name, list] as const;
        }),
      );
      const values: Record<string, string[]> = {};
      for (const [name, list] of found) if (list) values[name] = list;
      if (this.values.size >= 1000) this.values.clear();
      this.values.set(cacheKey, { at: now, version, values });
      return values;
    });
  }
}
