// One interface in front of every AI provider's wire protocol. The chat module hands over a
// prompt and the one tool it accepts; a client returns the tool call's arguments, unvalidated.
export const PROVIDERS = ['vendor_a', 'vendor_b', 'vendor_c', 'router', 'custom'] as const;
export type Provider = (typeof PROVIDERS)[number];

/** The subset of the egress guard the clients use (src/adapters/egress.ts implements it). */
export interface HttpTransport {
  request(
    url: string,
    options: { method?: string; headers?: Record<string, string>; body?: string; timeoutMs?: number; maxBytes?: number },
  ): Promise<{ status: number; headers: Headers; body: Buffer; text(): string; json(): unknown }>;
}

export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments (kept to the subset every provider accepts). */
  parameters: Record<string, unknown>;
}

export interface ToolPrompt {
  system: string;
  /** Earlier turns, oldest first, then the question as the last user turn. */
  messages: { role: 'user' | 'assistant'; content: string }[];
  /** The tools offered; the model must call one of them (the first when only one). */
  tools: ToolSpec[];
}

/** The tool the model called and its arguments, unvalidated. */
export interface ToolCall {
  name: string;
  args: unknown;
}

export interface LlmClient {
  readonly provider: Provider;
  /** A minimal real request with the configured model; throws LlmError on any failure. */
  testConnection(): Promise<void>;
  /** Asks for one call of one of prompt.tools and returns it; throws LlmError when there is none. */
  proposeToolCall(prompt: ToolPrompt): Promise<ToolCall>;
}

export type LlmFailure =
  | 'invalid_key'
  | 'forbidden'
  | 'unknown_model'
  | 'rate_limited'
  | 'quota'
  | 'timeout'
  | 'refused_address'
  | 'network'
  | 'redirect'
  | 'bad_request'
  | 'upstream'
  | 'bad_response'
  | 'no_tool_call';

/** A provider call that failed, with a message a person can act on (never containing the key). */
export class LlmError extends Error {
  constructor(
    readonly kind: LlmFailure,
    message: string,
  ) {
    super(message);
    this.name = 'LlmError';
  }
}

export interface LlmConnection {
  provider: Provider;
  apiKey: string;
  model: string;
  /** The protocol's base URL: config.providerUrls[provider], or the custom connector's base_url. */
  baseUrl: string;
  /** Defaults to LLM_TIMEOUT_MS. */
  timeoutMs?: number;
}

/** Provider calls wait at most this long (issue 4: a 10 s timeout). */
export const LLM_TIMEOUT_MS = 10_000;
