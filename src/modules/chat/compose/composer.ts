// Chat on the query layer (docs/chat.md "Composed answers"): the question read for composition,
// made one semantic query over the model and run once through the query service, unless the
// insight the parser chose means exactly the question (then it answers, with its name and chart).
// A part the query would not honour is refused by name; nothing is answered with something else.
import type { AuthContext } from '../../../auth/context.ts';
import { AppError } from '../../../lib/errors.ts';
import { addDays, bucketStart, defaultFrom } from '../../../semantic/periods.ts';
import type { SemanticModel } from '../../../semantic/model.ts';
import type { SemanticQuery } from '../../../semantic/query/query.schema.ts';
import type { ChartHint } from '../../../lib/chart.schemas.ts';
import { MAX_VALUES, type QueryResult, type QueryService } from '../../query/query.service.ts';
import { toEnglish, type Language } from '../language/languages.ts';
import type { ParseOutcome } from '../parser/index.ts';
import { buildLexicon, type Lexicon, type Member } from './lexicon.ts';
import { readQuestion, type Wanted } from './read.ts';
import { composedRefusal, composedReply, titleIn } from './reply.ts';
import { resolveWanted, type Composed } from './resolve.ts';
import { queryFromToolArgs } from './llm-query.ts';
import { InvalidToolCall } from '../chat.llm.ts';
import { answerUnusual } from './unusual.ts';

export interface ComposedAnswer {
  reply_text: string;
  chart_hint: ChartHint;
  rows: QueryResult['rows'];
  columns: QueryResult['columns'];
  query: SemanticQuery | null;
}

/** An answer that is only words: no rows, no query (a refusal by name). */
export function refusalAnswer(text: string): ComposedAnswer {
  return { reply_text: text, chart_hint: { type: 'table', x_axis: '' }, rows: [], columns: [], query: null };
}

/** The composer's verdict: the parser's insight answers ("insight"), or this answer or refusal does. */
export type Verdict = { kind: 'insight' } | { kind: 'answer'; answer: ComposedAnswer };

export interface Question {
  auth: AuthContext;
  question: string;
  language: Language;
  today: string;
  translations: { key: string; tables: Partial<Record<Language, [string, string][]>> };
}

export class ChatComposer {
  readonly lexicon: Lexicon;

  constructor(
    private readonly model: SemanticModel,
    private readonly queries: QueryService,
  ) {
    this.lexicon = buildLexicon(model);
  }

  /** What the question asks, read for composition (English first, as the parser reads it). */
  read(q: Question, values: Record<string, readonly string[]>): Wanted {
    const tables = q.translations.tables[q.language] ?? [];
    const english = q.language === 'en' ? q.question : toEnglish(q.question, q.language, tables, q.translations.key);
    return readQuestion(english, { today: q.today, lexicon: this.lexicon, values });
  }

  /** The values of every string dimension in the caller's data (the query service caches them per data version). */
  async values(auth: AuthContext): Promise<Record<string, readonly string[]>> {
    const scope = { tenantId: auth.tenantId, attributes: auth.attributes };
    // Side by side (each is read once per data version; the warehouse's read lanes run them in the tenant's turn).
    const lists = await Promise.all(
      this.lexicon.dimensions
        .filter((d) => d.type === 'string')
        .map(async (d) => {
          try {
            return [d.ref, await this.queries.dimensionValues(scope, d.ref)] as const;
          } catch {
            // Its table is not loaded: no values to name.
            return [d.ref, undefined] as const;
          }
        }),
    );
    const out: Record<string, readonly string[]> = {};
    // A dimension with as many values as are listed is ids or free text, not words.
    for (const [ref, values] of lists) if (values && values.length < MAX_VALUES) out[ref] = values;
    return out;
  }

  async decide(q: Question, parsed: ParseOutcome): Promise<Verdict> {
    if (parsed.kind === 'refused') return { kind: 'insight' };
    const wanted = this.read(q, await this.values(q.auth));
    const meaning = parsed.kind === 'query' ? this.lexicon.insights.find((i) => i.code === parsed.query.insight_code) : undefined;
    if (parsed.kind === 'query' && parsed.followUp && !wanted.measures.length) return { kind: 'insight' };
    // A name the parser read as a filter (a channel's everyday word) is no unknown name.
    if (parsed.kind === 'query' && meaning && this.keepParsedFilters(wanted, parsed.query.filters ?? {}, meaning.filterRefs))
      delete wanted.unknownValue;
    const composed = resolveWanted(wanted, this.lexicon, meaning?.measure);
    if (composed.kind === 'none') return { kind: 'insight' };
    if (composed.kind === 'refused') {
      const r = composed.refusal;
      // The insight the parser chose settles a near-tie between two measures of the model.
      const concept = meaning && this.member(meaning.measure)?.concept;
      if (r.reason === 'ambiguous' && concept && r.options.includes(concept)) return { kind: 'insight' };
      return { kind: 'answer', answer: refusalAnswer(composedRefusal(r, this.lexicon, q.language)) };
    }
    if (parsed.kind === 'query' && meaning && this.same(parsed, meaning, composed, wanted)) return { kind: 'insight' };
    return { kind: 'answer', answer: await this.runQuery(q, composed.query) };
  }

  /** The LLM's query tool arguments, checked by the query service's planner; InvalidToolCall when it would not run. */
  checkToolQuery(args: unknown): SemanticQuery {
    try {
      return queryFromToolArgs(args, this.lexicon, (query) => this.queries.plan(query, 'query'));
    } catch (err) {
      throw new InvalidToolCall(
        `query: ${err instanceof AppError ? (err.options.errors?.[0]?.message ?? err.detail) : (err as Error).message}`,
      );
    }
  }

  /**
   * A value the parser read that composition did not (a channel's everyday word, a country the data
   * has no rows of) is kept: the composed query must not drop a filter the question names.
   */
  private keepParsedFilters(wanted: Wanted, filters: Record<string, unknown>, refs: Record<string, string>): number {
    let kept = 0;
    for (const [name, v] of Object.entries(filters)) {
      const dim = this.member(refs[name] ?? '');
      if (!dim || v === undefined || wanted.filters.some((f) => f.dims.some((d) => d.concept === dim.concept))) continue;
      // Grouped by that dimension, the parser's value is a word of the grouping ("time of day" read as Day).
      if (wanted.groups.some((g) => g.some((d) => d.concept === dim.concept))) continue;
      // A word composition read as another dimension's value ("medium damage", not a medium size).
      const said = new Set(wanted.filters.flatMap((f) => f.values.map((x) => x.toLowerCase())));
      if ((Array.isArray(v) ? v : [v]).some((x) => said.has(String(x).toLowerCase()))) continue;
      const dims = this.lexicon.dimensions.filter((d) => d.concept === dim.concept && d.type === dim.type);
      wanted.filters.push({ dims, operator: 'equals', values: (Array.isArray(v) ? v : [v]).map(String), term: String(v) });
      kept++;
    }
    return kept;
  }

  private member(ref: string): Member | undefined {
    return this.lexicon.measures.find((m) => m.ref === ref) ?? this.lexicon.dimensions.find((d) => d.ref === ref);
  }

  /** Whether the insight means exactly what was composed: its measure, its grouping, the same filters, no condition. */
  private same(
    parsed: Extract<ParseOutcome, { kind: 'query' }>,
    meaning: Lexicon['insights'][number],
    composed: Extract<Composed, { kind: 'query' }>,
    wanted: Wanted,
  ): boolean {
    const concept = (ref: string | undefined) => (ref ? this.member(ref)?.concept : undefined);
    // The insight dropped a part of the question (a filter it does not take, a unit it has not).
    if (parsed.notes.some((n) => /does not apply|has no \w+ breakdown|is not supported/.test(n))) return false;
    if (wanted.granularity && (meaning.kind !== 'timeseries' || parsed.query.granularity !== wanted.granularity)) return false;
    const filters = parsed.query.filters ?? {};
    if (composed.measures.length !== 1 || concept(meaning.measure) !== composed.measures[0].concept) return false;
    // Values set against each other by period are the series an insight draws per value.
    const series = new Set(wanted.filters.filter((f) => f.apart && wanted.granularity).flatMap((f) => f.dims.map((d) => d.concept)));
    const groups = composed.groups.map((g) => g.concept).filter((c) => !(meaning.kind === 'timeseries' && series.has(c)));
    if (groups.length > 1 || (groups[0] ?? null) !== (concept(meaning.dimension) ?? null)) return false;
    if (wanted.conditions.length || wanted.filters.some((f) => f.operator !== 'equals')) return false;
    if (wanted.order === 'asc' && meaning.kind === 'top') return false;
    const key = (dim: string | undefined, values: readonly unknown[]) => `${concept(dim)}=${[...values].map(String).sort().join('|')}`;
    const asked = (composed.query.filters ?? []).map((f) => key(f.member, f.values ?? [])).sort();
    const given = Object.entries(filters)
      .filter(([, v]) => v !== undefined)
      .map(([name, v]) => key(meaning.filterRefs[name], Array.isArray(v) ? v : [v!]))
      .sort();
    return JSON.stringify(asked) === JSON.stringify(given);
  }

  /** What is unusual in the measure of `base`, per value of its grouping, over `range` (else the data's last week). */
  unusual(q: Question, base: SemanticQuery, range: { from: string; to: string } | undefined): Promise<ComposedAnswer | undefined> {
    const ref = base.measures[0];
    const time = base.time?.dimension ?? this.lexicon.timeOf.get(ref);
    if (!time) return Promise.resolve(undefined);
    const asked = { ...base, time: { dimension: time, ...(range ? { date_from: range.from, date_to: range.to } : {}) } };
    return answerUnusual(this.model, this.queries, { auth: q.auth, today: q.today, base: asked, periodAsked: Boolean(range) });
  }

  /** Runs the composed query once; a window left open is the data's own where the default would hold none of it. */
  async runQuery(q: Question, asked: SemanticQuery): Promise<ComposedAnswer> {
    const query: SemanticQuery = structuredClone(asked);
    const scope = { tenantId: q.auth.tenantId, attributes: q.auth.attributes };
    const notes: string[] = [];
    const t = query.time;
    if (t && !t.date_from && (t.granularity || query.compare)) {
      const span = await this.queries.dataSpan(scope, t.dimension);
      const to = span && span.to < q.today ? span.to : q.today;
      let from = t.granularity ? defaultFrom('timeseries', t.granularity, to) : bucketStart(to, 'month');
      if (span && from < span.from) from = span.from;
      t.date_from = from > to ? addDays(to, 0) : from;
      t.date_to = to;
    }
    let result: QueryResult;
    try {
      result = await this.queries.run(scope, query, 'query');
    } catch (err) {
      if (!(err instanceof AppError) || err.status >= 500) throw err;
      return refusalAnswer(`${composedRefusalText(q.language)} (${err.detail ?? err.message})`);
    }
    return {
      reply_text: composedReply(result, query, this.lexicon, q.language, notes),
      chart_hint: chartOf(result.query),
      rows: result.rows,
      columns: result.columns.map((c) => {
        const m = this.member(c.name);
        return m ? { ...c, label: titleIn(m, q.language) } : c;
      }),
      query: result.query,
    };
  }
}

const composedRefusalText = (language: Language): string =>
  ({
    en: 'I read the question, but the query cannot run as asked',
    de: 'Die Frage ist verstanden, aber die Abfrage lässt sich so nicht ausführen',
    fr: 'La question est comprise, mais la requête ne peut pas s’exécuter ainsi',
    es: 'La pregunta se entiende, pero la consulta no puede ejecutarse así',
  })[language];

/** How the rows are drawn: a line over time (a series per value), bars per value, a figure alone. */
function chartOf(q: SemanticQuery): ChartHint {
  const dims = q.dimensions ?? [];
  const time = q.time?.granularity ? q.time.dimension : undefined;
  const y_axis = q.measures;
  if (time) return { type: 'line', x_axis: time, y_axis, ...(dims[0] ? { series: dims[0] } : {}) };
  if (dims.length) return { type: 'bar', x_axis: dims[0], y_axis, ...(dims[1] ? { series: dims[1] } : {}) };
  return { type: 'kpi', x_axis: '', y_axis };
}
