// Fake AI providers on loopback, speaking each real wire protocol: the auth header each one wants,
// its error bodies, and its tool-call shape. One server, one path prefix per provider:
//   /a/v1  vendor_a (chat completions)   /b  vendor_b (messages)   /c  vendor_c (generateContent)
//   /r/api/v1  router (chat completions)  /x/v1  a custom OpenAI-compatible endpoint
// Behaviour is chosen by the key and model a test sends:
//   key containing "bad" → invalid key; "broke" → no quota; "busy" → rate limited
//   model "missing-model" → unknown model; "slow-model" → answers after 2 s; "boom-model" → 500;
//   "moved-model" → 302; "junk-model" → 200 with a non-JSON body; "odd-model" → 200, JSON of the wrong shape.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  provider: 'vendor_a' | 'vendor_b' | 'vendor_c' | 'router' | 'custom';
  path: string;
  headers: http.IncomingHttpHeaders;
  body: any;
}

type Answer = { status: number; body: unknown; headers?: Record<string, string>; raw?: string; delayMs?: number };

export class FakeProviders {
  private server = http.createServer((req, res) => void this.handle(req, res));
  requests: RecordedRequest[] = [];
  /**
   * The run_insight arguments a tool request gets back: an object, a function of the last user
   * message, or "no-call" to answer with plain text instead of a tool call.
   */
  toolArgs: unknown | ((question: string) => unknown) = { insight_code: 'revenue' };
  port = 0;

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  get base(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Env pointing every built-in provider at this fake, with loopback allowed by the egress guard. */
  env(): Record<string, string> {
    return {
      INSIGHTS_PROVIDER_URL_VENDOR_A: `${this.base}/a/v1`,
      INSIGHTS_PROVIDER_URL_VENDOR_B: `${this.base}/b`,
      INSIGHTS_PROVIDER_URL_VENDOR_C: `${this.base}/c`,
      INSIGHTS_PROVIDER_URL_ROUTER: `${this.base}/r/api/v1`,
      INSIGHTS_EGRESS_ALLOW: '127.0.0.0/8',
    };
  }

  get customBaseUrl(): string {
    return `${this.base}/x/v1`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let body: any;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    const url = req.url ?? '';
    let answer: Answer;
    let provider: RecordedRequest['provider'] | undefined;
    let m: RegExpExecArray | null;
    if (req.method === 'POST' && url === '/a/v1/chat/completions') answer = this.openAi((provider = 'vendor_a'), req, body);
    else if (req.method === 'POST' && url === '/r/api/v1/chat/completions') answer = this.openAi((provider = 'router'), req, body);
    else if (req.method === 'POST' && url === '/x/v1/chat/completions') answer = this.openAi((provider = 'custom'), req, body);
    else if (req.method === 'POST' && url === '/b/v1/messages') answer = this.anthropic((provider = 'vendor_b'), req, body);
    else if (req.method === 'POST' && (m = /^\/c\/v1beta\/models\/([^/:]+):generateContent$/.exec(url)))
      answer = this.gemini((provider = 'vendor_c'), req, body, decodeURIComponent(m[1]));
    else answer = { status: 404, body: { error: { message: `Unknown path ${url}`, code: 'not_found' } } };
    if (provider) this.requests.push({ provider, path: url, headers: req.headers, body });
    if (answer.delayMs) await new Promise((r) => setTimeout(r, answer.delayMs));
    if (res.destroyed) return;
    res.writeHead(answer.status, { 'content-type': answer.raw ? 'text/html' : 'application/json', ...answer.headers });
    res.end(answer.raw ?? JSON.stringify(answer.body));
  }

  private common(model: string | undefined, err: (status: number, message: string, code: string) => Answer): Answer | undefined {
    if (model === 'slow-model') return { status: 200, body: {}, delayMs: 2000 };
    if (model === 'boom-model') return err(500, 'The server had an error while processing your request.', 'server_error');
    if (model === 'moved-model') return { status: 302, body: {}, headers: { location: 'http://169.254.169.254/latest/meta-data' } };
    if (model === 'junk-model') return { status: 200, body: null, raw: '<html>hello</html>' };
    // 200 with JSON of the wrong shape for every protocol
    if (model === 'odd-model')
      return { status: 200, body: { type: 'message', choices: 'none', content: 'text', candidates: [{ content: { parts: 'x' } }] } };
    return undefined;
  }

  private question(messages: { content?: unknown; parts?: { text?: string }[] }[] | undefined): string {
    const last = (messages ?? []).at(-1);
    if (!last) return '';
    if (typeof last.content === 'string') return last.content;
    return (last.parts ?? []).map((p) => p.text ?? '').join(' ');
  }

  private args(question: string): unknown {
    return typeof this.toolArgs === 'function' ? (this.toolArgs as (q: string) => unknown)(question) : this.toolArgs;
  }

  /** The tool called: the first offered, or the one the arguments name as `$tool` (when offered); the arguments without it. */
  private call(names: string[], args: unknown): { name: string; args: unknown } {
    if (args && typeof args === 'object' && '$tool' in args) {
      const { $tool, ...rest } = args as { $tool: string };
      return { name: names.includes($tool) ? $tool : names[0], args: rest };
    }
    return { name: names[0], args };
  }

  // vendor_a, router and custom: OpenAI chat completions.
  private openAi(provider: string, req: http.IncomingMessage, body: any): Answer {
    const isRouter = provider === 'router';
    const err = (status: number, message: string, code: string): Answer =>
      isRouter
        ? { status, body: { error: { message, code: status } } }
        : { status, body: { error: { message, type: status === 401 ? 'invalid_request_error' : 'server_error', param: null, code } } };
    const auth = req.headers.authorization ?? '';
    const key = auth.startsWith('Bearer ') ? auth.slice(7) : '';
    if (!key) return err(401, "You didn't provide an API key.", 'missing_api_key');
    if (key.includes('bad')) {
      return isRouter
        ? err(401, 'No auth credentials found', 'x')
        : err(
            401,
            `Incorrect API key provided: ${key}. You can find your API key at https://platform.example/account/api-keys.`,
            'invalid_api_key',
          );
    }
    if (key.includes('broke'))
      return isRouter
        ? err(402, 'Insufficient credits. Add more using https://router.example/credits', 'x')
        : err(429, 'You exceeded your current quota, please check your plan and billing details.', 'insufficient_quota');
    if (key.includes('busy')) return err(429, 'Rate limit reached for requests', 'rate_limit_exceeded');
    const special = this.common(body?.model, err);
    if (special) return special;
    if (!body?.model) return err(400, 'you must provide a model parameter', 'invalid_request_error');
    if (body.model === 'missing-model') {
      return isRouter
        ? err(400, `${body.model} is not a valid model ID`, 'x')
        : err(404, `The model \`${body.model}\` does not exist or you do not have access to it.`, 'model_not_found');
    }
    const message: Record<string, unknown> = { role: 'assistant', content: null };
    if (Array.isArray(body.tools) && body.tools.length) {
      const asked = this.args(this.question(body.messages));
      if (asked === 'no-call') message.content = 'I can only chat.';
      else {
        const { name, args } = this.call(
          body.tools.map((t: { function: { name: string } }) => t.function.name),
          asked,
        );
        message.tool_calls = [
          { id: 'call_1', type: 'function', function: { name, arguments: typeof args === 'string' ? args : JSON.stringify(args) } },
        ];
      }
    } else message.content = 'pong';
    return {
      status: 200,
      body: {
        id: 'chatcmpl-1',
        object: 'chat.completion',
        model: body.model,
        choices: [{ index: 0, message, finish_reason: message.tool_calls ? 'tool_calls' : 'stop' }],
        usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 },
      },
    };
  }

  // vendor_b: Anthropic messages.
  private anthropic(_provider: string, req: http.IncomingMessage, body: any): Answer {
    const err = (status: number, message: string, type: string): Answer => ({ status, body: { type: 'error', error: { type, message } } });
    const key = String(req.headers['x-api-key'] ?? '');
    if (!key) return err(401, 'x-api-key header is required', 'authentication_error');
    if (!req.headers['anthropic-version']) return err(400, 'anthropic-version: header is required', 'invalid_request_error');
    if (key.includes('bad')) return err(401, 'invalid x-api-key', 'authentication_error');
    if (key.includes('broke')) return err(400, 'Your credit balance is too low to access the API.', 'invalid_request_error');
    if (key.includes('busy')) return err(429, 'Number of requests has exceeded your rate limit', 'rate_limit_error');
    const special = this.common(body?.model, (s, m) => err(s, m, 'api_error'));
    if (special) return special;
    if (typeof body?.max_tokens !== 'number') return err(400, 'max_tokens: Field required', 'invalid_request_error');
    if (body.model === 'missing-model') return err(404, `model: ${body.model}`, 'not_found_error');
    let content: unknown[] = [{ type: 'text', text: 'pong' }];
    let stop = 'end_turn';
    if (Array.isArray(body.tools) && body.tools.length) {
      const asked = this.args(this.question(body.messages));
      if (asked !== 'no-call') {
        const { name, args } = this.call(
          body.tools.map((t: { name: string }) => t.name),
          asked,
        );
        content = [{ type: 'tool_use', id: 'toolu_1', name, input: args }];
        stop = 'tool_use';
      }
    }
    return {
      status: 200,
      body: {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: body.model,
        content,
        stop_reason: stop,
        usage: { input_tokens: 5, output_tokens: 1 },
      },
    };
  }

  // vendor_c: Gemini generateContent.
  private gemini(_provider: string, req: http.IncomingMessage, body: any, model: string): Answer {
    const err = (status: number, message: string, statusText: string, reason?: string): Answer => ({
      status,
      body: {
        error: {
          code: status,
          message,
          status: statusText,
          ...(reason ? { details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason, domain: 'googleapis.com' }] } : {}),
        },
      },
    });
    const key = String(req.headers['x-goog-api-key'] ?? '');
    if (!key)
      return err(
        403,
        "Method doesn't allow unregistered callers. Please use API Key or other form of API consumer identity to call this API.",
        'PERMISSION_DENIED',
      );
    if (key.includes('bad')) return err(400, 'API key not valid. Please pass a valid API key.', 'INVALID_ARGUMENT', 'API_KEY_INVALID');
    if (key.includes('broke') || key.includes('busy'))
      return err(429, 'Resource has been exhausted (e.g. check quota).', 'RESOURCE_EXHAUSTED');
    const special = this.common(model, (s, m) => err(s, m, 'INTERNAL'));
    if (special) return special;
    if (model === 'missing-model')
      return err(404, `models/${model} is not found for API version v1beta, or is not supported for generateContent.`, 'NOT_FOUND');
    let parts: unknown[] = [{ text: 'pong' }];
    const decls = body?.tools?.[0]?.functionDeclarations;
    if (Array.isArray(decls) && decls.length) {
      const asked = this.args(this.question(body.contents));
      if (asked !== 'no-call')
        parts = [
          {
            functionCall: this.call(
              decls.map((d: { name: string }) => d.name),
              asked,
            ),
          },
        ];
    }
    return {
      status: 200,
      body: {
        candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
        usageMetadata: { promptTokenCount: 5 },
        modelVersion: model,
      },
    };
  }
}
