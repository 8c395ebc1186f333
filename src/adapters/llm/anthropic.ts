// Anthropic-style messages (vendor_b): `x-api-key` and `anthropic-version` headers, a top-level
// `system`, `tools` with `input_schema`, and a `tool_use` content block carrying `input`.
import { postJson, type ErrorReader } from './http.ts';
import { LlmError, type HttpTransport, type LlmClient, type LlmConnection, type ToolCall, type ToolPrompt } from './types.ts';

export const ANTHROPIC_VERSION = '2023-06-01';

const readError: ErrorReader = (_status, body) => {
  const e = (body as { error?: { message?: unknown; type?: unknown } })?.error;
  if (!e || typeof e !== 'object') return {};
  return { message: typeof e.message === 'string' ? e.message : undefined, code: typeof e.type === 'string' ? e.type : undefined };
};

export class AnthropicClient implements LlmClient {
  readonly provider = 'vendor_b' as const;
  constructor(
    private readonly conn: LlmConnection,
    private readonly http: HttpTransport,
  ) {}

  private post(body: Record<string, unknown>): Promise<unknown> {
    return postJson(
      this.http,
      `${this.conn.baseUrl}/v1/messages`,
      { 'x-api-key': this.conn.apiKey, 'anthropic-version': ANTHROPIC_VERSION },
      { model: this.conn.model, ...body },
      this.conn.apiKey,
      readError,
      this.conn.timeoutMs,
    );
  }

  async testConnection(): Promise<void> {
    const res = await this.post({ max_tokens: 1, messages: [{ role: 'user', content: 'ping' }] });
    if ((res as { type?: unknown }).type !== 'message') {
      throw new LlmError('bad_response', 'The endpoint answered, but not with a message.');
    }
  }

  async proposeToolCall(prompt: ToolPrompt): Promise<ToolCall> {
    const names = prompt.tools.map((t) => t.name);
    const res = (await this.post({
      max_tokens: 400,
      system: prompt.system,
      messages: prompt.messages,
      tools: prompt.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters })),
      tool_choice: names.length === 1 ? { type: 'tool', name: names[0] } : { type: 'any' },
    })) as { content?: { type?: string; name?: string; input?: unknown }[] };
    const block = (res.content ?? []).find((b) => b.type === 'tool_use' && names.includes(b.name ?? ''));
    if (!block) throw new LlmError('no_tool_call', `The model did not call ${names.join(' or ')}.`);
    return { name: block.name!, args: block.input };
  }
}
