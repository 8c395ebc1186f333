// Chat: a question in, an answer whose numbers come from the insight engine out. The active AI
// connector (if any) only proposes the structured query; the built-in parser answers whenever
// there is no connector or the provider fails, times out or proposes something invalid.
import type { AuthContext } from '../../auth/context.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { bucketStart } from '../../semantic/periods.ts';
import type { ConnectorsService } from '../connectors/connectors.service.ts';
import type { ExecuteResult, InsightsService } from '../insights/insights.service.ts';
import { modelTranslations, modelWords, parserCatalog } from './chat.catalog.ts';
import { detectLanguage, type Language } from './language/languages.ts';
import type { ChatRateLimiter } from './chat.rate-limit.ts';
import { phrases } from './language/phrases.ts';
import { composeReply, helpReply, refusalReply } from './chat.reply.ts';
import { localizedColumns } from './chat.columns.ts';
import { TenantData, type Log } from './chat.tenant-data.ts';
import { ConnectorProposal } from './chat.connector.ts';
import { executeParamsOf, insightAsSemantic, resolvedQuery } from './chat.queries.ts';
import type { ChatRepository, MessageRecord } from './chat.repository.ts';
import type { ChatAnswer } from './chat.schemas.ts';
import { parseQuestion, type ParseOutcome, type ParserInsight, type StructuredQuery } from './parser/index.ts';
import type { QueryService } from '../query/query.service.ts';
import type { SemanticQuery } from '../../semantic/query/query.schema.ts';
import { ChatComposer, type ComposedAnswer, refusalAnswer } from './compose/composer.ts';
import { modelTerms } from './compose/lexicon.ts';
import { modelLists } from './compose/reply.ts';
import { honours, rollingOf, rollingTwin, type TimeConcept, timeConcept, timeRefusal } from './compose/time-words.ts';

export type { ChatAnswer };

/** The question as the service reads it. */
interface Asked {
  /** The caller: chat reads the data as they may (row-level access filters). */
  auth: AuthContext;
  tenantId: string;
  question: string;
  language: Language;
  today: string;
  previous?: StructuredQuery;
  filterValues: Record<string, string[]>;
}

/** A proposed query: by whom, the notes that go with it, other queries that answer too. */
interface Chosen {
  query: StructuredQuery;
  notes: string[];
  by: string;
  alternatives?: StructuredQuery[];
  /** The question asks about all of the data ("how many … do we have"). */
  allData?: boolean;
}

/** A proposal run: its result, or why the engine would not run it. */
type Ran = { chosen: Chosen; result: ExecuteResult; invalid?: undefined } | { chosen: Chosen; result?: undefined; invalid: string };

export class ChatService {
  private readonly parserInsights: ParserInsight[];
  private readonly words: ReturnType<typeof modelWords> & { model: ReturnType<typeof modelTerms> };
  private readonly translations: ReturnType<typeof modelTranslations>;
  private readonly tenantData: TenantData;
  private readonly composer: ChatComposer;
  private readonly connector: ConnectorProposal;

  constructor(
    private readonly repo: ChatRepository,
    private readonly insights: InsightsService,
    queries: QueryService,
    connectors: ConnectorsService,
    private readonly limiter: ChatRateLimiter,
    private readonly clock: Clock,
    private readonly log: Log = () => {},
  ) {
    this.parserInsights = parserCatalog(insights.model.insights);
    this.composer = new ChatComposer(insights.model, queries);
    // A term the model has (any measure or dimension, not only the insights') is never refused as missing.
    this.words = { ...modelWords(insights.model), model: modelTerms(this.composer.lexicon) };
    this.translations = modelTranslations(insights.model);
    this.tenantData = new TenantData(insights, this.words.filters, clock, log);
    this.connector = new ConnectorProposal(
      connectors,
      repo,
      this.composer,
      this.parserInsights.map((i) => insights.get(i.code)),
      log,
    );
  }

  /** A question answered: propose a query (connector, else parser) → run it → answer in the question's language → save the exchange. */
  async ask(auth: AuthContext, input: { message: string; history_id?: string }): Promise<ChatAnswer> {
    this.limiter.take(auth.tenantId, auth.userId);
    // An unknown history_id starts a conversation under that id: it is the caller's own (the key is
    // tenant, user and id), so another user's conversation of the same id is never read.
    const conv = input.history_id ? await this.repo.findConversation(auth.tenantId, auth.userId, input.history_id) : undefined;
    const historyId = input.history_id ?? newId();
    // Detected once: the parser reads the question in it and the reply is written in it, whoever chose the query.
    const language: Language = detectLanguage(input.message);
    const asked: Asked = {
      auth,
      tenantId: auth.tenantId,
      question: input.message,
      language,
      today: this.insights.today(),
      previous: conv?.last_query ?? undefined,
      filterValues: await this.tenantData.filterValues(auth),
    };
    const llm = await this.connector.propose(auth.tenantId, { ...asked, userId: auth.userId, conversationId: conv?.id });
    let composed: ComposedAnswer | undefined;
    let composedBy = 'parser';
    if (llm?.semantic) {
      composed = await this.composer.runQuery({ ...asked, translations: this.translations }, llm.semantic);
      composedBy = llm.provider;
    }
    // A query the engine refuses (a window too long…) is the LLM's mistake: the parser answers.
    let ran = llm && !llm.semantic ? await this.run(asked, { query: llm.query, notes: [], by: llm.provider }) : undefined;
    if (ran?.invalid) {
      this.log({ provider: llm!.provider, reason: ran.invalid, kind: 'invalid_arguments' }, 'chat fell back to the built-in parser');
      ran = undefined;
    }
    let parsed: ParseOutcome | undefined;
    if (!ran && !composed) {
      parsed = this.propose(asked);
      // The question composed over the model, unless the parser's insight means exactly it.
      const verdict = await this.composer.decide({ ...asked, translations: this.translations }, parsed);
      if (verdict.kind === 'answer') composed = verdict.answer;
      else if (parsed.kind === 'query')
        ran = await this.run(asked, {
          query: parsed.query,
          notes: parsed.notes,
          by: 'parser',
          alternatives: parsed.alternatives,
          allData: parsed.allData,
        });
    }
    // Words about time itself (year to date, rolling, cohort…): answered only by what means them.
    const time = timeConcept(input.message);
    if (time?.concept === 'unusual') {
      const unusual = await this.unusualAnswer(asked, composed, ran);
      composed = unusual ?? refusalAnswer(timeRefusal(this.insights.model, time.concept, time.word, language));
      [ran, parsed] = [undefined, undefined];
    } else if (time) {
      if (time.concept === 'cohort') {
        const cohort = await this.cohortAnswer(asked);
        if (cohort) [composed, ran, parsed] = [undefined, cohort, undefined];
      }
      if (!this.honoursTime(time.concept, composed, ran)) {
        const twin = await this.rollingTwinAnswer(asked, time.concept, composed, ran);
        if (twin) [composed, ran, parsed] = [twin, undefined, undefined];
      }
      if (!this.honoursTime(time.concept, composed, ran)) {
        composed = refusalAnswer(timeRefusal(this.insights.model, time.concept, time.word, language));
        ran = undefined;
      }
    }
    const answer = composed ? this.composedAnswer(asked, historyId, composed, composedBy) : this.answer(asked, historyId, ran, parsed);
    await this.save(auth, { historyId, isNew: !conv, question: input.message, answer, lastQuery: ran?.result ? ran.chosen.query : null });
    return answer;
  }

  /**
   * A retention question: the model's cohort insight, over the period asked, with the values asked
   * when it takes each as a filter; undefined (and the question refused by name) when the question
   * also asks for a grouping, a condition, a comparison or a filter the insight does not take.
   */
  private async cohortAnswer(asked: Asked): Promise<Ran | undefined> {
    const def = this.insights.model.insights.find((i) => i.kind === 'cohort');
    if (!def) return undefined;
    const wanted = this.composer.read({ ...asked, translations: this.translations }, await this.composer.values(asked.auth));
    if (wanted.groups.length || wanted.conditions.length || wanted.compare) return undefined;
    const filters: Record<string, string[]> = {};
    for (const f of wanted.filters) {
      const name = def.filters.find((n) => f.dims.some((d) => d.ref === def.filterRefs[n]));
      if (!name || f.operator !== 'equals') return undefined;
      filters[name] = [...(filters[name] ?? []), ...f.values];
    }
    const query: StructuredQuery = {
      insight_code: def.code,
      ...(Object.keys(filters).length
        ? { filters: Object.fromEntries(Object.entries(filters).map(([k, v]) => [k, v.length === 1 ? v[0] : v])) }
        : {}),
      ...(wanted.range ? { date_from: wanted.range.from, date_to: wanted.range.to } : {}),
    };
    const ran = await this.run(asked, { query, notes: [], by: 'parser' });
    return ran.result ? ran : undefined;
  }

  /**
   * The answer's question as one semantic query: the composed query, or the insight's measure,
   * grouping, filters and window as it ran (undefined for a cohort, or an insight without a time).
   */
  private semanticOf(composed: ComposedAnswer | undefined, ran: Ran | undefined): SemanticQuery | undefined {
    if (composed?.query) return structuredClone(composed.query);
    if (!ran?.result) return undefined;
    return insightAsSemantic(this.insights.find(ran.result.insight_code), ran.chosen.query, ran.result);
  }

  /**
   * The answer asked again with the headline measure's rolling twin (rollingTwin): the same
   * grouping, filters and period, by a time grouping (a month where the answer had none).
   */
  private async rollingTwinAnswer(asked: Asked, concept: TimeConcept, composed: ComposedAnswer | undefined, ran: Ran | undefined) {
    const query = this.semanticOf(composed, ran);
    const twin = query && rollingTwin(this.insights.model, query.measures[0], concept);
    if (!query?.time || !twin) return undefined;
    query.measures = [twin, ...query.measures.slice(1).filter((m) => m !== twin)];
    query.time = { ...query.time, granularity: query.time.granularity ?? 'month' };
    return this.composer.runQuery({ ...asked, translations: this.translations }, query);
  }

  /**
   * "Anything unusual in …": the answer's measure, grouping and filters judged by the anomaly
   * detector over the period the question names (compose/unusual.ts). English only: the detector's
   * sentences are; other languages keep the refusal that points to anomaly alerts.
   */
  private async unusualAnswer(asked: Asked, composed: ComposedAnswer | undefined, ran: Ran | undefined) {
    if (asked.language !== 'en') return undefined;
    const base = this.semanticOf(composed, ran);
    if (!base) return undefined;
    const question = { ...asked, translations: this.translations };
    const wanted = this.composer.read(question, await this.composer.values(asked.auth));
    // A ranking ("top 2"), a condition or a comparison is not what the detector judges.
    if (wanted.conditions.length || wanted.compare || wanted.order || wanted.limit !== undefined) return undefined;
    return this.composer.unusual(question, base, wanted.range);
  }

  /** Whether the answer means the time word: a cohort insight for a cohort, else a headline measure with that rolling window. */
  private honoursTime(concept: TimeConcept, composed: ComposedAnswer | undefined, ran: Ran | undefined): boolean {
    const def = ran?.result ? this.insights.find(ran.result.insight_code) : undefined;
    if (concept === 'cohort') return !composed && def?.kind === 'cohort';
    // A total over a window from the start of its year, quarter or month is a to-date figure ("YTD revenue vs last year").
    const t = composed?.query?.time;
    const span = composed
      ? t && { from: t.date_from, to: t.date_to, grouped: Boolean(t.granularity) }
      : ran?.result && { from: ran.result.period.from, to: ran.result.period.to, grouped: def?.kind === 'timeseries' };
    if ((concept === 'to_date' || concept === 'cumulative') && span?.from && span.to && !span.grouped) {
      const { from, to } = span;
      if ((['year', 'quarter', 'month'] as const).some((g) => bucketStart(to, g) === from)) return true;
    }
    const headline = composed ? composed.query?.measures[0] : def?.measures.find((m) => m.name === def.chart.y_axis?.[0])?.ref;
    return Boolean(headline && rollingOf(this.insights.model, headline).some((w) => honours(concept, w)));
  }

  /** The built-in parser's reading of the question, with the model's words and the tenant's values. */
  private propose(asked: Asked): ParseOutcome {
    return parseQuestion(asked.question, {
      today: asked.today,
      catalog: this.parserInsights,
      categories: asked.filterValues.category ?? [],
      previous: asked.previous,
      words: this.words,
      filterValues: asked.filterValues,
      translations: this.translations,
      language: asked.language,
    });
  }

  /**
   * Runs the chosen query. One that names no period is never answered over an empty window: where
   * the default window before today holds none of the tenant's data, or the question asks about all
   * of it, the window is the data's own, and the reply says so.
   */
  private async run(asked: Asked, chosen: Chosen): Promise<Ran> {
    let query = chosen.query;
    const notes = [...chosen.notes];
    if (!query.date_from && !query.date_to) {
      const own = await this.tenantData.window(asked.auth, query, Boolean(chosen.allData));
      if (own) {
        query = { ...query, date_from: own.from, date_to: own.to };
        notes.push(phrases(asked.language).dataWindow(own.kind, phrases(asked.language).span(own.from, own.to)));
      }
    }
    try {
      return { chosen: { ...chosen, notes }, result: await this.execute(asked.auth, query) };
    } catch (err) {
      // e.g. "daily revenue since 1990": understood, but beyond what the engine runs. The
      // message is the question's problem, not the request's, so it is an answer, not a 400.
      if (!(err instanceof AppError && err.code === 'VALIDATION_FAILED')) throw err;
      return { chosen, invalid: err.detail ?? err.message };
    }
  }

  /** The reply: the engine's rows and figures, a refusal that says what is missing, or what can be asked. */
  private answer(asked: Asked, historyId: string, ran: Ran | undefined, parsed: ParseOutcome | undefined): ChatAnswer {
    const { language } = asked;
    // No rows, no insight: a reply and, maybe, what can be asked instead.
    const unanswered = (reply_text: string, alternatives: StructuredQuery[] = []): ChatAnswer => ({
      reply_text,
      chart_hint: { type: 'table', x_axis: '' },
      rows: [],
      columns: [],
      history_id: historyId,
      insight_code: null,
      query: null,
      answered_by: 'parser',
      alternatives,
      language,
    });
    if (parsed?.kind === 'refused') {
      // Said so, never answered with another measure (docs/chat.md "Honest answers").
      const model = modelLists(this.composer.lexicon, language);
      const r = refusalReply(parsed.refusal, parsed.range, this.insights.model.insights, asked.today, language, model);
      return unanswered(r.text, r.alternatives);
    }
    if (!ran?.result) {
      return unanswered(
        ran?.invalid
          ? `I read this as ${ran.chosen.query.insight_code.replace(/_/g, ' ')}, but it cannot run as asked ` +
              `(${ran.invalid}). Try a shorter period or fewer filters.`
          : helpReply(this.insights.model.insights, this.words.filters, asked.filterValues, language),
      );
    }
    const { result, chosen } = ran;
    return {
      reply_text: composeReply(result, this.insights.find(result.insight_code), chosen.notes, language),
      chart_hint: result.chart_hint,
      rows: result.rows,
      columns: localizedColumns(result, this.insights.find(result.insight_code), language),
      history_id: historyId,
      insight_code: result.insight_code,
      query: resolvedQuery(chosen.query, result),
      answered_by: chosen.by,
      alternatives: chosen.alternatives ?? [],
      language,
    };
  }

  /** A composed answer (or refusal) as chat answers: no insight, the semantic query that ran. */
  private composedAnswer(asked: Asked, historyId: string, c: ComposedAnswer, by: string): ChatAnswer {
    return { ...c, history_id: historyId, insight_code: null, answered_by: by, alternatives: [], language: asked.language };
  }

  /** The question and the reply, kept in the conversation. */
  private async save(
    auth: AuthContext,
    x: { historyId: string; isNew: boolean; question: string; answer: ChatAnswer; lastQuery: StructuredQuery | null },
  ): Promise<void> {
    const now = this.clock.now();
    const message = (role: 'user' | 'assistant', content: string, extra: Partial<MessageRecord> = {}): MessageRecord => ({
      id: newId(),
      conversation_id: x.historyId,
      tenant_id: auth.tenantId,
      user_id: auth.userId,
      role,
      content,
      insight_code: null,
      query: null,
      answered_by: null,
      created_at: now,
      ...extra,
    });
    const { answer } = x;
    await this.repo.saveExchange(
      // The unresolved query is what a follow-up changes: "by month instead" then gets the
      // engine's default window for months rather than the days of the first answer.
      { id: x.historyId, tenant_id: auth.tenantId, user_id: auth.userId, isNew: x.isNew, last_query: x.lastQuery, at: now },
      [
        message('user', x.question),
        message('assistant', answer.reply_text, {
          insight_code: answer.insight_code,
          query: answer.query,
          answered_by: answer.answered_by,
        }),
      ],
    );
  }

  /**
   * The active connector's proposal, validated; undefined without a connector or on any failure
   * of that step (provider error, timeout, odd response shape, invalid arguments, a stored key
   * that no longer opens), which is logged and leaves the answer to the parser.
   */

  // As the caller, attributes included: the model's row-level access filters apply to chat too.
  private execute(auth: AuthContext, q: StructuredQuery): Promise<ExecuteResult> {
    return this.insights.execute(auth, q.insight_code, executeParamsOf(q));
  }
}
