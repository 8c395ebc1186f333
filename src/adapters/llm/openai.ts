// OpenAI-style chat completions (vendor_a, the router, custom endpoints): Bearer auth, `tools` with
// JSON-Schema functions, and the answer's `choices[0].message.tool_calls[].function.arguments`.
import { postJson, type ErrorReader } from './http.ts';
import { LlmError, type HttpTransport, type LlmClient, type LlmConnection, type ToolCall, type ToolPrompt } from './types.ts';

const readError: ErrorReader = (_status, body) => {
  const e = (body as { error?: { message?: unknown; code?: unknown; type?: unknown } })?.error;
  if (!e || typeof e !== 'object') return {};
  return {
    message: typeof e.message === 'string' ? e.message : undefined,
    code: [e.code, e.type].filter((x) => typeof x === 'string' || typeof x === 'number').join(' '),
  };
};

export class OpenAiCompatibleClient implements LlmClient {
  constructor(
    private readonly conn: LlmConnection,
    private readonly http: HttpTransport,
  ) {}

  get provider() {
    return this.conn.provider;
  }

  private post(body: Record<string, unknown>): Promise<unknown> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.conn.apiKey}` };
    // The router asks callers to name themselves; harmless elsewhere, so sent only there.
    if (this.conn.provider === 'router') headers['x-title'] = 'Insights Service';
    return postJson(
      this.http,
      `${this.conn.baseUrl}/chat/completions`,
      headers,
      { model: this.conn.model, ...body },
      this.conn.apiKey,
      readError,
      this.conn.timeoutMs,
    );
  }

  // vendor_a's newer models refuse max_tokens and want max_completion_tokens; OpenAI-compatible
  // servers (router, custom) mostly know only max_tokens.
  private limit(n: number): Record<string, number> {
    return this.conn.provider === 'vendor_a' ? { max_completion_tokens: n } : { max_tokens: n };
  }

  async testConnection(): Promise<void> {
    const res = await this.post({ messages: [{ role: 'user', content: 'ping' }], ...this.limit(5) });
    if (!Array.isArray((res as { choices?: unknown }).choices)) {
      throw new LlmError('bad_response', 'The endpoint answered, but not with a chat completion (no "choices").');
    }
  }

  async proposeToolCall(prompt: ToolPrompt): Promise<ToolCall> {
    const names = prompt.tools.map((t) => t.name);
    const res = (await this.post({
      messages: [{ role: 'system', content: prompt.system }, ...prompt.messages],
      tools: prompt.tools.map((t) => ({
        type: 'function',
        function: { name: t.name, description: t.description, parameters: t.parameters },
      })),
      tool_choice: names.length === 1 ? { type: 'function', function: { name: names[0] } } : 'required',
      ...this.limit(400),
    })) as { choices?: { message?: { tool_calls?: { type?: string; function?: { name?: string; arguments?: unknown } }[] } }[] };
    const calls = res.choices?.[0]?.message?.tool_calls ?? [];
    const call = calls.find((c) => names.includes(c.function?.name ?? ''));
    if (!call?.function) throw new LlmError('no_tool_call', `The model did not call ${names.join(' or ')}.`);
    const name = call.function.name!;
    const args = call.function.arguments;
    if (typeof args !== 'string') return { name, args };
    try {
      return { name, args: JSON.parse(args) };
    } catch {
      throw new LlmError('bad_response', `The model's ${name} arguments are not valid JSON.`);
    }
  }
}
