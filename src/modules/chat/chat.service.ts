// Chat: a question in, an answer whose numbers come from the insight engine out. The active AI
// connector (if any) only proposes the structured query; the built-in parser answers whenever
// there is no connector or the provider fails, times out or proposes something invalid.
import type { AuthContext } from '../../auth/context.ts';
import { LlmError } from '../../adapters/llm/types.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { addDays, defaultFrom } from '../../semantic/periods.ts';
import type { Granularity } from '../../semantic/types.ts';
import { MAX_PERIODS } from '../insights/insights.params.ts';
import type { ConnectorsService } from '../connectors/connectors.service.ts';
import type { ExecuteParams, ExecuteResult, InsightsService } from '../insights/insights.service.ts';
import { modelTranslations, modelWords, parserCatalog } from './chat.catalog.ts';
import { detectLanguage, type Language } from './language/languages.ts';
import { InvalidToolCall, toolPrompt, validateToolArgs } from './chat.llm.ts';
import type { ChatRateLimiter } from './chat.rate-limit.ts';
import { phrases } from './language/phrases.ts';
import { composeReply, helpReply, refusalReply } from './chat.reply.ts';
import { localizedColumns, type AnswerColumn } from './chat.columns.ts';
import type { ChatRepository, MessageRecord } from './chat.repository.ts';
import { parseQuestion, type ParseOutcome, type ParserInsight, type StructuredQuery } from './parser/index.ts';

export interface ChatAnswer {
  reply_text: string;
  chart_hint: ExecuteResult['chart_hint'];
  rows: ExecuteResult['rows'];
  /** The rows' columns, titled in the answer's language (chat.columns.ts). */
  columns: AnswerColumn[];
  history_id: string;
  insight_code: string | null;
  query: StructuredQuery | null;
  answered_by: string;
  /** Other queries that answer the question too, or the closest that can be asked when it cannot be answered. */
  alternatives: StructuredQuery[];
  /** The language the question was read in and the reply is written in (ISO 639-1). */
  language: Language;
}

/** A chosen query as the insight engine's parameters (chat runs it; MCP reads its columns). */
export function executeParamsOf(q: StructuredQuery): ExecuteParams {
  return {
    ...q.filters,
    granularity: q.granularity,
    date_from: q.date_from,
    date_to: q.date_to,
    limit: q.limit,
    compare: q.compare,
  };
}

type Log = (details: Record<string, unknown>, message: string) => void;

const VALUES_TTL_MS = 10 * 60_000;
/** A filter dimension with more values than this is not learnt as words (ids, free text). */
const MAX_FILTER_WORDS = 2000;

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
const HISTORY_MESSAGES = 6;

export class ChatService {
  private readonly parserInsights: ParserInsight[];
  private readonly words: ReturnType<typeof modelWords>;
  private readonly translations: ReturnType<typeof modelTranslations>;
  /** Per tenant: the values of each filter dimension in its data, and the data version they are of. */
  private readonly filterValues = new Map<string, { at: number; version: string | undefined; values: Record<string, string[]> }>();
  /** Per tenant and insight: the first and last day of its data, and the data version they are of. */
  private readonly spans = new Map<string, { version: string | undefined; span: { from: string; to: string } | undefined }>();

  constructor(
    private readonly repo: ChatRepository,
    private readonly insights: InsightsService,
    private readonly connectors: ConnectorsService,
    private readonly limiter: ChatRateLimiter,
    private readonly clock: Clock,
    private readonly log: Log = () => {},
  ) {
    this.parserInsights = parserCatalog(insights.model.insights);
    this.words = modelWords(insights.model);
    this.translations = modelTranslations(insights.model);
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
      filterValues: await this.tenantFilterValues(auth),
    };
    const llm = await this.proposeWithLlm(auth.tenantId, { ...asked, userId: auth.userId, conversationId: conv?.id });
    // A query the engine refuses (a window too long…) is the LLM's mistake: the parser answers.
    let ran = llm ? await this.run(asked, { query: llm.query, notes: [], by: llm.provider }) : undefined;
    if (ran?.invalid) {
      this.log({ provider: llm!.provider, reason: ran.invalid, kind: 'invalid_arguments' }, 'chat fell back to the built-in parser');
      ran = undefined;
    }
    let parsed: ParseOutcome | undefined;
    if (!ran) {
      parsed = this.propose(asked);
      if (parsed.kind === 'query')
        ran = await this.run(asked, {
          query: parsed.query,
          notes: parsed.notes,
          by: 'parser',
          alternatives: parsed.alternatives,
          allData: parsed.allData,
        });
    }
    const answer = this.answer(asked, historyId, ran, parsed);
    await this.save(auth, { historyId, isNew: !conv, question: input.message, answer, lastQuery: ran?.result ? ran.chosen.query : null });
    return answer;
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
      const own = await this.dataWindow(asked.auth, query, Boolean(chosen.allData));
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

  /** The data's own window for a query without one, or undefined where the default window will do. */
  private async dataWindow(
    auth: AuthContext,
    q: StructuredQuery,
    allData: boolean,
  ): Promise<{ from: string; to: string; kind: 'all' | 'capped' | 'latest' } | undefined> {
    const def = this.insights.find(q.insight_code);
    if (!def) return undefined;
    let window: { from: string; to: string };
    try {
      window = this.insights.resolve(auth, q.insight_code, {
        ...q.filters,
        granularity: q.granularity,
        limit: q.limit,
        compare: q.compare,
      }).window;
    } catch {
      return undefined;
    }
    const outside = (span: { from: string; to: string }) => span.to < window.from || span.from > window.to;
    const span = await this.dataSpan(auth, q.insight_code);
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
  private async dataSpan(auth: AuthContext, code: string): Promise<{ from: string; to: string } | undefined> {
    const { tenantId } = auth;
    const version = await this.insights.dataVersion(tenantId);
    const key = JSON.stringify([tenantId, code, auth.attributes ?? null]);
    const hit = this.spans.get(key);
    if (hit && hit.version === version) return hit.span;
    const span = await this.insights.dataSpan(auth, code);
    if (this.spans.size > 10_000) this.spans.clear();
    this.spans.set(key, { version, span });
    return span;
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
      const r = refusalReply(parsed.refusal, parsed.range, this.insights.model.insights, asked.today, language);
      return unanswered(r.text, r.alternatives);
    }
    if (!ran?.result) {
      return unanswered(
        ran?.invalid
          ? `I read this as ${ran.chosen.query.insight_code.replace(/_/g, ' ')}, but it cannot run as asked (${ran.invalid}). Try a shorter period or fewer filters.`
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
  private async proposeWithLlm(
    tenantId: string,
    input: {
      question: string;
      today: string;
      filterValues: Record<string, string[]>;
      previous?: StructuredQuery;
      userId: string;
      conversationId?: string;
    },
  ): Promise<{ query: StructuredQuery; provider: string } | undefined> {
    let provider = 'unknown';
    try {
      const client = await this.connectors.activeClient(tenantId);
      if (!client) return undefined;
      provider = client.provider;
      const history = input.conversationId
        ? (await this.repo.recentMessages(tenantId, input.userId, input.conversationId, HISTORY_MESSAGES)).map((m) => ({
            role: m.role,
            content: m.content,
          }))
        : [];
      const catalog = this.parserInsights.map((i) => this.insights.get(i.code));
      const args = await client.proposeToolCall(toolPrompt({ ...input, catalog, history }));
      return { query: validateToolArgs(args, catalog), provider };
    } catch (err) {
      const kind = err instanceof LlmError ? err.kind : err instanceof InvalidToolCall ? 'invalid_arguments' : 'unexpected';
      // Messages of LlmError never carry the key; other errors are logged by class only, to be safe.
      const reason = err instanceof LlmError || err instanceof InvalidToolCall ? err.message : ((err as Error)?.name ?? 'Error');
      this.log({ provider, reason, kind }, 'chat fell back to the built-in parser');
      return undefined;
    }
  }

  // As the caller, attributes included: the model's row-level access filters apply to chat too.
  private execute(auth: AuthContext, q: StructuredQuery): Promise<ExecuteResult> {
    return this.insights.execute(auth, q.insight_code, executeParamsOf(q));
  }

  /**
   * The values of each filter dimension in all of the tenant's data (the demo's category names, a
   * model's plans…), read through an insight that takes the filter, at most MAX_FILTER_WORDS of
   * them (a dimension with more is not a list of words). Cached per tenant and data version: a
   * load changes the version, so the next question sees the new values.
   */
  private async tenantFilterValues(auth: AuthContext): Promise<Record<string, string[]>> {
    const { tenantId } = auth;
    const version = await this.insights.dataVersion(tenantId);
    // Read as the caller: a row-level access filter narrows the values offered, so they are kept per set of attributes.
    const cacheKey = auth.attributes ? JSON.stringify([tenantId, auth.attributes]) : tenantId;
    const hit = this.filterValues.get(cacheKey);
    const now = this.clock.now().getTime();
    if (hit && hit.version === version && now - hit.at < VALUES_TTL_MS) return hit.values;
    const values: Record<string, string[]> = {};
    for (const { name } of this.words.filters) {
      const reader = this.insights.model.insights.find((d) => d.filters.includes(name));
      const found = reader && (await this.insights.filterValuesOf(auth, reader.code, name, MAX_FILTER_WORDS));
      if (found) values[name] = found;
      else this.log({ filter: name, insight: reader?.code }, 'chat could not list the values of a filter');
    }
    if (this.filterValues.size >= 1000) this.filterValues.clear();
    this.filterValues.set(cacheKey, { at: now, version, values });
    return values;
  }
}

/** The query as it ran: the parser's or the LLM's, with the window and granularity the engine chose. */
function resolvedQuery(q: StructuredQuery, result: ExecuteResult): StructuredQuery {
  const out: StructuredQuery = { ...q, filters: q.filters && { ...q.filters } };
  if (!out.filters) delete out.filters;
  if (result.granularity) out.granularity = result.granularity as StructuredQuery['granularity'];
  if (Object.keys(result.filters).length) out.filters = { ...result.filters };
  out.date_from = result.period.from;
  out.date_to = result.period.to;
  return out;
}
