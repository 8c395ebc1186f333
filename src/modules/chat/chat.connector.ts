// A tenant's AI connector proposes the query of a question: the catalog's run_insight tool or the
// semantic query tool, with the conversation's last messages. Whatever goes wrong (no connector, the
// provider failing or timing out, arguments that do not check) is logged and chat's built-in parser
// answers instead; the reason is logged without the key.
import { LlmError } from '../../adapters/llm/types.ts';
import type { SemanticQuery } from '../../semantic/query/query.schema.ts';
import type { InsightDefinition } from '../../semantic/types.ts';
import type { ConnectorsService } from '../connectors/connectors.service.ts';
import { InvalidToolCall, toolPrompt, validateToolArgs } from './chat.llm.ts';
import type { ChatRepository } from './chat.repository.ts';
import type { Log } from './chat.tenant-data.ts';
import type { ChatComposer } from './compose/composer.ts';
import { QUERY_TOOL, queryLines, queryTool } from './compose/llm-query.ts';
import type { StructuredQuery } from './parser/index.ts';

/** The messages of the conversation the connector reads with a question. */
const HISTORY_MESSAGES = 6;

export class ConnectorProposal {
  constructor(
    private readonly connectors: ConnectorsService,
    private readonly repo: ChatRepository,
    private readonly composer: ChatComposer,
    /** The insights the connector may choose from. */
    private readonly catalog: readonly InsightDefinition[],
    private readonly log: Log,
  ) {}

  /** The connector's query for the question, or undefined where the built-in parser answers. */
  async propose(
    tenantId: string,
    input: {
      question: string;
      today: string;
      filterValues: Record<string, string[]>;
      previous?: StructuredQuery;
      userId: string;
      conversationId?: string;
    },
  ): Promise<
    { query: StructuredQuery; semantic?: undefined; provider: string } | { semantic: SemanticQuery; provider: string } | undefined
  > {
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
      const { catalog } = this;
      const lex = this.composer.lexicon;
      const call = await client.proposeToolCall(
        toolPrompt({ ...input, catalog, history, query: { tool: queryTool(lex), lines: queryLines(lex) } }),
      );
      // The query tool's arguments pass the same planner as POST /api/v1/query before anything runs.
      if (call.name === QUERY_TOOL) return { semantic: this.composer.checkToolQuery(call.args), provider };
      return { query: validateToolArgs(call.args, catalog), provider };
    } catch (err) {
      const kind = err instanceof LlmError ? err.kind : err instanceof InvalidToolCall ? 'invalid_arguments' : 'unexpected';
      // Messages of LlmError never carry the key; other errors are logged by class only, to be safe.
      const reason = err instanceof LlmError || err instanceof InvalidToolCall ? err.message : ((err as Error)?.name ?? 'Error');
      this.log({ provider, reason, kind }, 'chat fell back to the built-in parser');
      return undefined;
    }
  }
}
