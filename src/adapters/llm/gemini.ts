// Gemini-style generateContent (vendor_c): the model in the path, `x-goog-api-key`, `contents` of
// `parts`, `functionDeclarations`, and a `functionCall` part carrying `args`.
import { postJson, type ErrorReader } from './http.ts';
import { LlmError, type HttpTransport, type LlmClient, type LlmConnection, type ToolCall, type ToolPrompt } from './types.ts';

const readError: ErrorReader = (_status, body) => {
  const e = (body as { error?: { message?: unknown; status?: unknown; details?: { reason?: unknown }[] } })?.error;
  if (!e || typeof e !== 'object') return {};
  const reasons = (Array.isArray(e.details) ? e.details : []).map((d) => d?.reason).filter((r) => typeof r === 'string');
  return {
    message: typeof e.message === 'string' ? e.message : undefined,
    code: [...reasons, typeof e.status === 'string' ? e.status : ''].filter(Boolean).join(' '),
  };
};

// Gemini's schema dialect is an OpenAPI subset: no additionalProperties, no pattern, no format but
// date-time/enum; those are dropped (the arguments are validated on our side anyway).
function toGeminiSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toGeminiSchema);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'additionalProperties' || k === 'pattern' || k === 'format' || k === '$schema') continue;
    out[k] =
      k === 'properties' ? Object.fromEntries(Object.entries(v as object).map(([p, s]) => [p, toGeminiSchema(s)])) : toGeminiSchema(v);
  }
  return out;
}

export class GeminiClient implements LlmClient {
  readonly provider = 'vendor_c' as const;
  constructor(
    private readonly conn: LlmConnection,
    private readonly http: HttpTransport,
  ) {}

  private post(body: Record<string, unknown>): Promise<unknown> {
    const model = encodeURIComponent(this.conn.model.replace(/^models\//, ''));
    return postJson(
      this.http,
      `${this.conn.baseUrl}/v1beta/models/${model}:generateContent`,
      { 'x-goog-api-key': this.conn.apiKey },
      body,
      this.conn.apiKey,
      readError,
      this.conn.timeoutMs,
    );
  }

  async testConnection(): Promise<void> {
    const res = await this.post({ contents: [{ role: 'user', parts: [{ text: 'ping' }] }], generationConfig: { maxOutputTokens: 1 } });
    if (!Array.isArray((res as { candidates?: unknown }).candidates)) {
      throw new LlmError('bad_response', 'The endpoint answered, but not with generated content (no "candidates").');
    }
  }

  async proposeToolCall(prompt: ToolPrompt): Promise<ToolCall> {
    const names = prompt.tools.map((t) => t.name);
    const res = (await this.post({
      systemInstruction: { parts: [{ text: prompt.system }] },
      contents: prompt.messages.map((m) => ({ role: m.role === 'assistant' ? 'model' : 'user', parts: [{ text: m.content }] })),
      tools: [
        {
          functionDeclarations: prompt.tools.map((t) => ({
            name: t.name,
            description: t.description,
            parameters: toGeminiSchema(t.parameters),
          })),
        },
      ],
      toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: names } },
      generationConfig: { maxOutputTokens: 400 },
    })) as { candidates?: { content?: { parts?: { functionCall?: { name?: string; args?: unknown } }[] } }[] };
    const parts = res.candidates?.[0]?.content?.parts ?? [];
    const call = parts.find((p) => names.includes(p.functionCall?.name ?? ''))?.functionCall;
    if (!call) throw new LlmError('no_tool_call', `The model did not call ${names.join(' or ')}.`);
    return { name: call.name!, args: call.args ?? {} };
  }
}
