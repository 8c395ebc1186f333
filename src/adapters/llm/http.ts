// The HTTP exchange every protocol shares: POST JSON through the egress guard with the provider
// timeout, and turn each way it can fail into an LlmError a person understands.
import { EgressError, EgressRefused, EgressTimeout, EgressTooLarge } from '../egress.ts';
import { LLM_TIMEOUT_MS, LlmError, type HttpTransport } from './types.ts';

export interface UpstreamError {
  status: number;
  /** The provider's own error text, already stripped of the key. */
  message: string;
  /** The provider's machine code or type, e.g. "invalid_api_key", "not_found_error", "API_KEY_INVALID". */
  code: string;
}

/** What the protocol reads out of a non-2xx body; each protocol nests it differently. */
export type ErrorReader = (status: number, body: unknown) => { message?: string; code?: string };

function egressKind(err: unknown): 'refused' | 'timeout' | 'too_large' | 'network' | undefined {
  if (err instanceof EgressRefused) return 'refused';
  if (err instanceof EgressTimeout) return 'timeout';
  if (err instanceof EgressTooLarge) return 'too_large';
  if (err instanceof EgressError) return 'network';
  return undefined;
}

export function scrub(text: string, secret: string): string {
  let out = text.replace(/\s+/g, ' ').trim();
  if (secret.length >= 4) out = out.split(secret).join('[key]');
  return out.length > 300 ? `${out.slice(0, 297)}...` : out;
}

export async function postJson(
  http: HttpTransport,
  url: string,
  headers: Record<string, string>,
  body: unknown,
  secret: string,
  readError: ErrorReader,
  timeoutMs: number = LLM_TIMEOUT_MS,
): Promise<unknown> {
  let res: Awaited<ReturnType<HttpTransport['request']>>;
  const host = safeHost(url);
  try {
    res = await http.request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
      body: JSON.stringify(body),
      timeoutMs,
    });
  } catch (err) {
    const kind = egressKind(err);
    const detail = scrub(err instanceof Error ? err.message : String(err), secret);
    if (kind === 'timeout')
      throw new LlmError(
        'timeout',
        `The provider at ${host} did not answer within ${timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} s` : `${timeoutMs} ms`}.`,
      );
    if (kind === 'refused')
      throw new LlmError(
        'refused_address',
        `Outbound calls to ${host} are refused: ${detail}. Private, loopback, link-local and metadata addresses are ` +
          `blocked unless INSIGHTS_EGRESS_ALLOW lists them.`,
      );
    if (kind === 'too_large') throw new LlmError('bad_response', `The provider at ${host} sent an answer larger than allowed.`);
    throw new LlmError('network', /^could not reach/i.test(detail) ? detail : `Could not reach the provider at ${host}: ${detail}`);
  }
  if (res.status >= 300 && res.status < 400) {
    throw new LlmError('redirect', `The provider at ${host} answered with a redirect (${res.status}); check the base URL.`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(res.text());
  } catch {
    parsed = undefined;
  }
  if (res.status >= 200 && res.status < 300) {
    if (parsed === undefined)
      throw new LlmError('bad_response', `The provider at ${host} answered ${res.status} with a body that is not JSON.`);
    return parsed;
  }
  const read = parsed === undefined ? {} : readError(res.status, parsed);
  throw classify({ status: res.status, message: scrub(read.message ?? res.text().slice(0, 200), secret), code: read.code ?? '' }, host);
}

function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'the configured address';
  }
}

const MODEL_HINTS = /model|not a valid model|no endpoints found/i;
const KEY_HINTS = /api[ _-]?key|credential|unauthori[sz]ed|authentication/i;

/** The same failure reads alike whichever provider reported it. */
export function classify(e: UpstreamError, host: string): LlmError {
  const says = e.message ? `: ${e.message}` : '';
  const tag = `${e.status}${e.code ? ` ${e.code}` : ''}`;
  if (
    e.status === 401 ||
    /API_KEY_INVALID|invalid_api_key|authentication_error/i.test(e.code) ||
    (e.status === 400 && KEY_HINTS.test(e.message) && /invalid|not valid|missing/i.test(e.message))
  ) {
    return new LlmError('invalid_key', `The provider refused the API key (${tag})${says}`);
  }
  if (e.status === 402 || /insufficient_quota/i.test(e.code)) {
    return new LlmError('quota', `The provider account has no credit or quota left (${tag})${says}`);
  }
  if (e.status === 429 || /rate_limit|RESOURCE_EXHAUSTED/i.test(e.code)) {
    return new LlmError('rate_limited', `The provider is rate limiting this key; try again shortly (${tag})${says}`);
  }
  if (e.status === 403) {
    return new LlmError('forbidden', `The API key is not allowed to use this model or endpoint (${tag})${says}`);
  }
  if (
    e.status === 404 ||
    /model_not_found|not_found_error/i.test(e.code) ||
    (e.status === 400 && MODEL_HINTS.test(e.message) && /not|invalid|unknown/i.test(e.message))
  ) {
    return new LlmError('unknown_model', `The provider does not know this model, or the base URL is wrong (${tag})${says}`);
  }
  if (e.status >= 500) {
    return new LlmError('upstream', `The provider at ${host} failed (${tag})${says}`);
  }
  return new LlmError('bad_request', `The provider refused the request (${tag})${says}`);
}
