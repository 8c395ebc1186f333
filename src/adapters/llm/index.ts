import { AnthropicClient } from './anthropic.ts';
import { GeminiClient } from './gemini.ts';
import { OpenAiCompatibleClient } from './openai.ts';
import type { HttpTransport, LlmClient, LlmConnection } from './types.ts';

export * from './types.ts';

/** The client that speaks the connection's provider protocol. */
export function createLlmClient(conn: LlmConnection, http: HttpTransport): LlmClient {
  switch (conn.provider) {
    case 'vendor_b':
      return new AnthropicClient(conn, http);
    case 'vendor_c':
      return new GeminiClient(conn, http);
    case 'vendor_a':
    case 'router':
    case 'custom':
      return new OpenAiCompatibleClient(conn, http);
  }
}
