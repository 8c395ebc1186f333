// Chat: a question in, an answer whose numbers come from the insight engine out. The active AI
// connector (if any) only proposes the structured query; the built-in parser answers whenever
// there is no connector or the provider fails, times out or proposes something invalid.
import type { AuthContext } from '../../auth/context.ts';
import { LlmError } from '../../adapters/llm/types.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { addDays } from '../../semantic/periods.ts';
import type { ConnectorsService } from '../connectors/connectors.service.ts';
import type { ExecuteResult, InsightsService } from '../insights/insights.service.ts';
import { modelTranslations, modelWords, parserCatalog } from './chat.catalog.ts';
import { detectLanguage, type Language } from './parser/languages.ts';
import { InvalidToolCall, toolPrompt, validateToolArgs } from './chat.llm.ts';
import type { ChatRateLimiter } from './chat.rate-limit.ts';
import { composeReply, helpReply, refusalReply } from './chat.reply.ts';
import type { ChatRepository, MessageRecord } from './chat.repository.ts';
import { parseQuestion, type ParserInsight, type StructuredQuery } from './parser/index.ts';

export interface ChatAnswer {
  reply_text: string;
  chart_hint: ExecuteResult['chart_hint'];
  rows: ExecuteResult['rows'];
  history_id: string;
  insight_code: string | null;
  query: StructuredQuery | null;
  answered_by: string;
  /** Other queries that answer the question too, or the closest that can be asked when it cannot be answered. */
  alternatives: StructuredQuery[];
  /** The language the question was read in and the reply is written in (ISO 639-1). */
  language: Language;
}

type Log = (details: Record<string, unknown>, message: string) => void;

const VALUES_TTL_MS = 10 * 60_000;
const HISTORY_MESSAGES = 6;

export class ChatService {
  private readonly parserInsights: ParserInsight[];
  private readonly words: ReturnType<typeof modelWords>;
  private readonly translations: ReturnType<typeof modelTranslations>;
  /** Per tenant: the values of each filter dimension in its data, and the data version they are of. */
  private readonly filterValues = new Map<string, { at: number; version: string | undefined; values: Record<string, string[]> }>();

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

  async ask(auth: AuthContext, input: { message: string; history_id?: string }): Promise<ChatAnswer> {
    this.limiter.take(auth.tenantId, auth.userId);
    // An unknown history_id starts a conversation under that id: it is the caller's own (the key is
    // tenant, user and id), so another user's conversation of the same id is never read.
    const conv = input.history_id ? await this.repo.findConversation(auth.tenantId, auth.userId, input.history_id) : undefined;
    const historyId = input.history_id ?? newId();
    const previous = conv?.last_query ?? undefined;
    const today = this.insights.today();
    const filterValues = await this.tenantFilterValues(auth, today);
    const categories = filterValues.category ?? [];

    let chosen: { query: StructuredQuery; notes: string[]; by: string; alternatives?: StructuredQuery[] } | undefined;
    let result: ExecuteResult | undefined;

    const llm = await this.proposeWithLlm(auth.tenantId, { question: input.message, today, filterValues, previous, userId: auth.userId, conversationId: conv?.id });
    if (llm) {
      try {
        result = await this.run(auth, llm.query);
        chosen = { query: llm.query, notes: [], by: llm.provider };
      } catch (err) {
        // A query the engine refuses (a window too long…) is the LLM's mistake: the parser answers.
        if (!(err instanceof AppError && err.code === 'VALIDATION_FAILED')) throw err;
        this.log({ provider: llm.provider, reason: err.message, kind: 'invalid_arguments' }, 'chat fell back to the built-in parser');
      }
    }

    let refused: string | undefined;
    // The reply is written in the question's language, whoever chose the query.
    const language: Language = detectLanguage(input.message);
    let refusal: Extract<ReturnType<typeof parseQuestion>, { kind: 'refused' }> | undefined;
    if (!chosen) {
      const parsed = parseQuestion(input.message, { today, catalog: this.parserInsights, categories, previous, words: this.words, filterValues, translations: this.translations, language });
      if (parsed.kind === 'refused') refusal = parsed;
      if (parsed.kind === 'query') {
        chosen = { query: parsed.query, notes: parsed.notes, by: 'parser', alternatives: parsed.alternatives };
        try {
          result = await this.run(auth, parsed.query);
        } catch (err) {
          // e.g. "daily revenue since 1990": understood, but beyond what the engine runs. The
          // message is the question's problem, not the request's, so it is an answer, not a 400.
          if (!(err instanceof AppError && err.code === 'VALIDATION_FAILED')) throw err;
          refused = err.detail;
        }
      }
    }

    const now = this.clock.now();
    let answer: ChatAnswer;
    // No rows, no insight: a reply and, maybe, what can be asked instead.
    const unanswered = (reply_text: string, alternatives: StructuredQuery[] = []): ChatAnswer => ({
      reply_text,
      chart_hint: { type: 'table', x_axis: '' },
      rows: [],
      history_id: historyId,
      insight_code: null,
      query: null,
      answered_by: 'parser',
      alternatives,
      language,
    });
    if (refusal) {
      // Said so, never answered with another measure (docs/chat.md "Honest answers").
      const r = refusalReply(refusal.refusal, refusal.range, this.insights.model.insights, today, language);
      answer = unanswered(r.text, r.alternatives);
    } else if (!chosen || !result) {
      answer = unanswered(
        refused && chosen
          ? `I read this as ${chosen.query.insight_code.replace(/_/g, ' ')}, but it cannot run as asked (${refused}). Try a shorter period or fewer filters.`
          : helpReply(this.insights.model.insights, this.words.filters, filterValues, language),
      );
    } else {
      answer = {
        reply_text: composeReply(result, this.insights.find(result.insight_code), chosen.notes, language),
        chart_hint: result.chart_hint,
        rows: result.rows,
        history_id: historyId,
        insight_code: result.insight_code,
        query: resolvedQuery(chosen.query, result),
        answered_by: chosen.by,
        alternatives: chosen.alternatives ?? [],
        language,
      };
    }

    const message = (role: 'user' | 'assistant', content: string, extra: Partial<MessageRecord> = {}): MessageRecord => ({
      id: newId(),
      conversation_id: historyId,
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
    await this.repo.saveExchange(
      // The unresolved query is what a follow-up changes: "by month instead" then gets the
      // engine's default window for months rather than the days of the first answer.
      { id: historyId, tenant_id: auth.tenantId, user_id: auth.userId, isNew: !conv, last_query: result ? chosen!.query : null, at: now },
      [
        message('user', input.message),
        message('assistant', answer.reply_text, { insight_code: answer.insight_code, query: answer.query, answered_by: answer.answered_by }),
      ],
    );
    return answer;
  }

  /**
   * The active connector's proposal, validated; undefined without a connector or on any failure
   * of that step (provider error, timeout, odd response shape, invalid arguments, a stored key
   * that no longer opens), which is logged and leaves the answer to the parser.
   */
  private async proposeWithLlm(
    tenantId: string,
    input: { question: string; today: string; filterValues: Record<string, string[]>; previous?: StructuredQuery; userId: string; conversationId?: string },
  ): Promise<{ query: StructuredQuery; provider: string } | undefined> {
    let provider = 'unknown';
    try {
      const client = await this.connectors.activeClient(tenantId);
      if (!client) return undefined;
      provider = client.provider;
      const history = input.conversationId
        ? (await this.repo.recentMessages(tenantId, input.userId, input.conversationId, HISTORY_MESSAGES)).map((m) => ({ role: m.role, content: m.content }))
        : [];
      const catalog = this.parserInsights.map((i) => this.insights.get(i.code));
      const args = await client.proposeToolCall(toolPrompt({ ...input, catalog, history }));
      return { query: validateToolArgs(args, catalog), provider };
    } catch (err) {
      const kind = err instanceof LlmError ? err.kind : err instanceof InvalidToolCall ? 'invalid_arguments' : 'unexpected';
      // Messages of LlmError never carry the key; other errors are logged by class only, to be safe.
      const reason = err instanceof LlmError || err instanceof InvalidToolCall ? err.message : (err as Error)?.name ?? 'Error';
      this.log({ provider, reason, kind }, 'chat fell back to the built-in parser');
      return undefined;
    }
  }

  // As the caller, attributes included: the model's row-level access filters apply to chat too.
  private run(auth: AuthContext, q: StructuredQuery): Promise<ExecuteResult> {
    return this.insights.execute(auth, q.insight_code, {
      ...q.filters,
      granularity: q.granularity,
      date_from: q.date_from,
      date_to: q.date_to,
      limit: q.limit,
      compare: q.compare,
    });
  }

  /**
   * The values of each filter dimension in the tenant's data (the demo's category names, a model's
   * plans…), read through the engine: each filter is listed by a breakdown or top insight grouped by
   * that dimension, over ten years. Cached per tenant and data version: a load changes the version,
   * so the next question sees the new values.
   */
  private async tenantFilterValues(auth: AuthContext, today: string): Promise<Record<string, string[]>> {
    const { tenantId } = auth;
    const version = await this.insights.dataVersion(tenantId);
    // Read as the caller: a row-level access filter narrows the values offered, so they are kept per set of attributes.
    const cacheKey = auth.attributes ? JSON.stringify([tenantId, auth.attributes]) : tenantId;
    const hit = this.filterValues.get(cacheKey);
    const now = this.clock.now().getTime();
    if (hit && hit.version === version && now - hit.at < VALUES_TTL_MS) return hit.values;
    const values: Record<string, string[]> = {};
    for (const { name } of this.words.filters) {
      const lister = this.insights.model.insights.find((d) => (d.kind === 'breakdown' || d.kind === 'top') && d.dimensions[0]?.name === name);
      if (!lister) continue;
      try {
        const res = await this.insights.execute(auth, lister.code, { date_from: addDays(today, -3600), date_to: today, ...(lister.limit ? { limit: lister.limit.max } : {}) });
        values[name] = res.rows.map((r) => r[name]).filter((c): c is string => typeof c === 'string' && c.length > 0);
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        // A table not loaded yet: the filter has no values to offer until it is.
        this.log({ filter: name, insight: lister.code, reason: err.detail ?? err.message }, 'chat could not list the values of a filter');
      }
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
